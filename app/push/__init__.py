"""Web Push (RFC 8030, 8291, 8292): which endpoints the server may call, its VAPID key, the
words of each notification, and the one POST that delivers one. Nothing here knows the
database or a room: app/services/push.py decides who is told what, and when."""

"""FastAPI routers: thin, they call the services."""

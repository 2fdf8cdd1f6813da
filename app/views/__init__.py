"""The typed shapes a viewer is shown (API.md "The view", "The hand record"), below the
services and the pages that serve them and above the rules whose observation they copy.

Pure: they import only ``app.rules``, ``app.reasons`` and each other (the layer contract in
pyproject.toml holds them to it).
"""

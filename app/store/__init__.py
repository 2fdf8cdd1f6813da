"""SQL storage: models, engine setup (SQLite pragmas, PostgreSQL) and repositories."""

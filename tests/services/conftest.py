from tests.databases import database_url  # noqa: F401 - a fixture

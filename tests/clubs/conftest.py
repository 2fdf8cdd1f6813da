from tests.api.conftest import client, settings  # noqa: F401 - fixtures
from tests.databases import database_url  # noqa: F401 - a fixture

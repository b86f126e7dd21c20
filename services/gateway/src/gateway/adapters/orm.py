"""The gateway service's database tables."""

from platform_kit.runtime import add_messaging_tables
from sqlalchemy import MetaData

metadata = MetaData()
add_messaging_tables(metadata)

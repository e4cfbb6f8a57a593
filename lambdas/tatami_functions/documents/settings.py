"""The documents function's settings: its table and the bucket of large bodies (ModelsWorkshop sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class DocumentsSettings(TableSettings):
    table: str = variable("DOCUMENTS_TABLE")
    bucket: str = variable("DOCUMENTS_BUCKET")

"""The documents function's settings: its table and the bucket of large bodies (`infra/services/documents.py`
sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class DocumentsSettings(TableSettings):
    table: str = variable("DOCUMENTS_TABLE_NAME")
    bucket: str = variable("DOCUMENTS_BUCKET_NAME")

"""Log records of the whole site, as ``LOGGING`` (config/settings.py) formats them.

- :class:`RequestIdFilter` gives every record a ``request_id``: the id of the request being served,
  or of the request that sent the job being run (``core.request_id``), else ``-``.
- ``LOG_FORMAT=json`` (the production default) writes one JSON object a line
  (python-json-logger): ``time``, ``level``, ``logger``, ``message``, ``request_id``, and any
  ``extra`` a call passes; ``text`` writes the same fields as a line of text.
"""

import logging

from core.request_id import request_id_current


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to each record (keeps one a record already has)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = request_id_current() or "-"
        return True

"""Errors the domain raises for a person to read and act on.

A *domain error* is a user error: the input broke a rule of euchre, of the league's rulebook or of a
plan (a rotation, a bracket). Its message is written for the person at the table or the organiser,
e.g. "5 tricks is the most a side can take". Anything else that goes wrong is a bug and is left to
surface as one (Tabbycat's split between user errors and fatal ones).

Pure Python: no Django import here, so every domain module can use it.
"""


class DomainError(Exception):
    """A rule was broken; ``message`` says which, in words fit for a user.

    ``field`` names the input at fault when there is one (``"tricks_won"``), so the API can return
    it as a field error; ``code`` is a short stable slug for clients.
    """

    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message


class ConflictError(DomainError):
    """The request clashes with what is already recorded (HTTP 409)."""

    code = "conflict"


class NotFoundError(DomainError):
    """The thing asked for does not exist, or the caller may not know it does (HTTP 404)."""

    code = "not_found"


class AccessDeniedError(DomainError):
    """The caller may not do this (HTTP 403)."""

    code = "permission_denied"

"""The plumbing every app uses and no app owns: the domain's errors, the API's errors,
authentication, parsers, pagination, routers and schema, request ids, QR codes, metrics and job
sending. It depends on Django and libraries only, never on an app."""

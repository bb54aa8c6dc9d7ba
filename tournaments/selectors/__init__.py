"""Reads for tournaments (services write; selectors read and never write): brackets as the pages
and the API show them (``brackets``), the structure and standings they are built from
(``bracket_structure``, ``bracket_standings``), and team season schedules (``schedules``)."""

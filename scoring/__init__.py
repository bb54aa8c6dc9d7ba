"""The folder of two Django apps: ``scoring.games`` (games and hands, label ``scoring``) and
``scoring.standings`` (what the games add up to, label ``standings``). Standings read games;
games never import standings."""

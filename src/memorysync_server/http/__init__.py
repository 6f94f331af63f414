"""The HTTP layer: the app, routes per area (``routes/``), request checks, errors, auth, quota and
wire forms. A route parses, calls one service (``memorysync_server.services``) and encodes."""

-- Bearer tokens of the team server (package auth): only a token's SHA-256
-- is stored; a revoked token is kept, marked, so that its name stays
-- taken and the list shows it.
CREATE TABLE tokens (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    hash         TEXT NOT NULL UNIQUE,
    scope        TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    projects     TEXT NOT NULL DEFAULT '[]',
    created_at   TEXT NOT NULL,
    revoked_at   TEXT
);

-- An address is someone's only once proved: by a link mailed to it (an
-- open sign-up, an invitation that was mailed, a password reset), by the
-- operator at the command line, or by a single sign-on provider that
-- verified it. users.proved_at is when it was, NULL while nobody has: such
-- an account was made from an invitation's link that the console showed
-- to the inviting admin, and reaches only the workspace whose link made it.
--
-- invitations.mailed is whether the link went out by e-mail, which proves
-- the address to whoever opens it; a link only shown to the inviting
-- admin proves nothing.
--
-- The users who exist count as proved: they were made before this rule,
-- by the operator or from links the hub took as proof. The invitations
-- still open count as shown, since nothing recorded whether they were
-- mailed.

-- +goose Up
ALTER TABLE users ADD COLUMN proved_at BIGINT;
UPDATE users SET proved_at = created_at;
ALTER TABLE invitations ADD COLUMN mailed BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE invitations DROP COLUMN mailed;
ALTER TABLE users DROP COLUMN proved_at;

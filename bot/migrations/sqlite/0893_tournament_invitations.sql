-- A pairs event's invitations (bot/tournaments/store.py): who asked whom to be his partner,
-- kept apart from the entries until the partner accepts (a pending invitation blocks nobody
-- from entering). One row per inviter and partner: a declined one is not asked again.
CREATE TABLE tournament_invitations (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    inviter_id    BIGINT  NOT NULL,
    inviter_name  TEXT    NOT NULL,
    partner_id    BIGINT  NOT NULL,
    partner_name  TEXT    NOT NULL,
    status        TEXT    NOT NULL
                  CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled')),
    created_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, inviter_id, partner_id)
);
CREATE INDEX tournament_invitations_partner ON tournament_invitations (partner_id);

-- The pairs that were waiting for their partner become invitations.
INSERT INTO tournament_invitations
    (tournament_id, inviter_id, inviter_name, partner_id, partner_name, status, created_at)
SELECT tournament_id, user_id, name, partner_id, COALESCE(partner_name, ''), 'pending', created_at
FROM tournament_entries WHERE status = 'invited' AND partner_id IS NOT NULL;
DELETE FROM tournament_people WHERE EXISTS (
    SELECT 1 FROM tournament_entries e
    WHERE e.tournament_id = tournament_people.tournament_id
      AND e.entry = tournament_people.entry AND e.status = 'invited'
);
DELETE FROM tournament_entries WHERE status = 'invited';

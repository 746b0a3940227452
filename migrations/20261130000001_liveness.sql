-- When a server process last said it was alive (Unix milliseconds): each
-- process writes it every few seconds. A process that starts and finds it
-- old knows that no process ran meanwhile (an outage: a restart, an
-- upgrade, a crash), and moves every running move clock on by the
-- outage's length before timing anyone out (rule book §11). 0: no process
-- has run since this table was made.
CREATE TABLE liveness (
    id  BIGINT  PRIMARY KEY,
    at  BIGINT  NOT NULL
);
INSERT INTO liveness (id, at) VALUES (1, 0);

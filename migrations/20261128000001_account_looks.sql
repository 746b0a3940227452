-- What each account's name looks like (Unicode's confusable skeleton of its
-- lower case, see `names::look`): an anonymous seat may not carry a name
-- that looks like an account's, nor a new account one that looks like an
-- older one's. Filled for older accounts by the server when it starts
-- (SQL cannot compute a skeleton). One set for SQLite and PostgreSQL.
ALTER TABLE accounts ADD COLUMN look TEXT;
CREATE INDEX accounts_look ON accounts (look);

-- Proxy records now carry the pay-versus-performance table's net income (us-gaap:NetIncomeLoss),
-- the ecd text facts (the company-selected measure's name, the most important measures, the PEO),
-- the contextRef of every value, and the director nominees of the election-of-directors proposal.
-- Forgetting the proxy ingest items makes the next ingest read those documents again, since
-- an unchanged item is otherwise skipped by its digest.
DELETE FROM "IngestItem" WHERE "kind" = 'proxy';

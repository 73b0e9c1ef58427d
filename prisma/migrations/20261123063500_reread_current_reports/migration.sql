-- A say-on-frequency proposal now carries the frequency chosen as its outcome. Forgetting the
-- 8-K ingest items makes the next ingest read those documents again (an unchanged item is
-- otherwise skipped), so that the events already held gain it.
DELETE FROM "IngestItem" WHERE "kind" = 'current_report';

-- Offering documents now keep underwriters, placement agents and sales agents apart. Forgetting
-- the offering ingest items makes the next ingest read those documents again (an unchanged item
-- is otherwise skipped), so that the records already held are corrected.
DELETE FROM "IngestItem" WHERE "kind" = 'offering';

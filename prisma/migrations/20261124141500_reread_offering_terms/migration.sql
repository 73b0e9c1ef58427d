-- Offering records now carry the dilution terms read from the document's text (warrants,
-- lock-ups, rights of first refusal, shelf and ATM size, net tangible book value per share).
-- Forgetting the offering ingest items makes the next ingest read those documents again, since
-- an unchanged item is otherwise skipped by its digest.
DELETE FROM "IngestItem" WHERE "kind" = 'offering';

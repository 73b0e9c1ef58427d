-- A fact's key leads with its company's CIK (ten decimal digits, valid hex digits too), followed by
-- the last 22 hex digits of the same digest: one company's facts sit together in the unique index,
-- so a load writes to a few of its pages at a time instead of random pages across all of it.
UPDATE "Fact" SET "factKey" = (lpad("cik", 10, '0') || substr(replace("factKey"::text, '-', ''), 11))::uuid;

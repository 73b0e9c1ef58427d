-- AlterTable
ALTER TABLE "MarketSource" ADD COLUMN     "adjusted" BOOLEAN,
ADD COLUMN     "adjustedNote" TEXT;

-- AlterTable
ALTER TABLE "PriceBar" ADD COLUMN     "adjClose" TEXT;

-- Price files now say whether their Close is adjusted for splits and dividends (read off their
-- columns at ingest), and keep an Adj Close column when they have one. Forgetting the price ingest
-- items makes the next ingest read those files again, since an unchanged item is otherwise skipped
-- by its digest.
DELETE FROM "IngestItem" WHERE "kind" = 'market_prices';

-- The rows of each ticker map are kept apart (source), so that a disagreement between the maps
-- is seen rather than overwritten. Rows already held came from whichever map was read last and
-- are labelled company_tickers until the next ingest of the maps replaces them.
ALTER TABLE "Ticker" DROP CONSTRAINT "Ticker_pkey",
ADD COLUMN     "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'company_tickers',
ADD CONSTRAINT "Ticker_pkey" PRIMARY KEY ("ticker", "cik", "source");
ALTER TABLE "Ticker" ALTER COLUMN "source" DROP DEFAULT;

-- AddForeignKey
ALTER TABLE "Ticker" ADD CONSTRAINT "Ticker_cik_fkey" FOREIGN KEY ("cik") REFERENCES "Entity"("cik") ON DELETE RESTRICT ON UPDATE CASCADE;

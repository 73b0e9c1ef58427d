-- CreateIndex
CREATE INDEX "Entity_tickers_idx" ON "Entity" USING GIN ("tickers");

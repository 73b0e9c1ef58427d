-- CreateIndex
CREATE INDEX "Filing_cik_orderedAt_accessionNumber_idx" ON "Filing"("cik", "orderedAt", "accessionNumber");

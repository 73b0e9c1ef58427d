-- CreateIndex
CREATE INDEX "Filing_accessionNumber_primaryDocument_idx" ON "Filing"("accessionNumber", "primaryDocument");

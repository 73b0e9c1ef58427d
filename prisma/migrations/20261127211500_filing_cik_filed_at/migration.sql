-- CreateIndex
CREATE INDEX "Filing_cik_filedAt_idx" ON "Filing"("cik", "filedAt");

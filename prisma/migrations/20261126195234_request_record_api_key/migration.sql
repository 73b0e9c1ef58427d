-- AlterTable
ALTER TABLE "RequestRecord" ADD COLUMN     "apiKeyId" TEXT;

-- CreateIndex
CREATE INDEX "RequestRecord_orgId_apiKeyId_createdAt_idx" ON "RequestRecord"("orgId", "apiKeyId", "createdAt");

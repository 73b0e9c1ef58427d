-- CreateTable
CREATE TABLE "SponsorToken" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "createdByUserId" TEXT,
    "agentName" TEXT NOT NULL,
    "scopes" TEXT[],
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "apiKeyId" TEXT,

    CONSTRAINT "SponsorToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SponsorToken_tokenHash_key" ON "SponsorToken"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "SponsorToken_apiKeyId_key" ON "SponsorToken"("apiKeyId");

-- CreateIndex
CREATE INDEX "SponsorToken_orgId_createdAt_idx" ON "SponsorToken"("orgId", "createdAt");

-- AddForeignKey
ALTER TABLE "SponsorToken" ADD CONSTRAINT "SponsorToken_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

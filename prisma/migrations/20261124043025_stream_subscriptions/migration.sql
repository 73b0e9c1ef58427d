-- CreateTable
CREATE TABLE "StreamSubscription" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "eventTypes" TEXT[],
    "tickers" TEXT[],
    "ciks" TEXT[],
    "forms" TEXT[],
    "transport" TEXT NOT NULL DEFAULT 'poll',
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "startTxid" BIGINT NOT NULL,
    "startSeq" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "StreamSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StreamTicket" (
    "hash" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StreamTicket_pkey" PRIMARY KEY ("hash")
);

-- CreateIndex
CREATE INDEX "StreamSubscription_orgId_createdAt_idx" ON "StreamSubscription"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "StreamTicket_subscriptionId_idx" ON "StreamTicket"("subscriptionId");

-- CreateIndex
CREATE INDEX "StreamTicket_expiresAt_idx" ON "StreamTicket"("expiresAt");

-- AddForeignKey
ALTER TABLE "StreamSubscription" ADD CONSTRAINT "StreamSubscription_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StreamTicket" ADD CONSTRAINT "StreamTicket_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "StreamSubscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterEnum
ALTER TYPE "QuotaPeriod" ADD VALUE 'month';

-- AlterTable
ALTER TABLE "RequestRecord" ADD COLUMN     "spans" JSON;

-- CreateTable
CREATE TABLE "Strategy" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "kind" TEXT NOT NULL,
    "definition" JSON NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Strategy_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Strategy_orgId_createdAt_idx" ON "Strategy"("orgId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Strategy_orgId_name_key" ON "Strategy"("orgId", "name");

-- AddForeignKey
ALTER TABLE "Strategy" ADD CONSTRAINT "Strategy_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

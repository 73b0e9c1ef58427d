-- AlterTable
ALTER TABLE "StatementPeriod" DROP CONSTRAINT "StatementPeriod_pkey",
ADD COLUMN     "asReported" TEXT NOT NULL DEFAULT 'latest',
ADD CONSTRAINT "StatementPeriod_pkey" PRIMARY KEY ("cik", "basis", "asReported", "periodEnd");

-- AlterTable
ALTER TABLE "CompanyConcept" DROP CONSTRAINT "CompanyConcept_pkey",
ADD CONSTRAINT "CompanyConcept_pkey" PRIMARY KEY ("cik", "tag", "taxonomy", "unit", "hasDimensions");

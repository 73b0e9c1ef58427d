// The maximum aggregate offering price from the filing-fee exhibit (Exhibit 107), for
// registration statements whose cover does not state one (resale S-1s, for example).
//
// The totals row is trusted only when it prints both the offering amount and the fee: filers do
// mistype it (Acurx's S-1 prints the fee alone, as "$761,12"). Otherwise the one securities row
// that carries a fee rate gives it: the amount printed just before the rate is the aggregate.

const amountPattern = /\$\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)/g;
const feeRate = /^0\.\d{4,}$/;

export function maximumFromFeeTable(exhibit: string): number | null {
  const lines = exhibit.split('\n');
  const total = lines.find((l) => /Total Offering Amounts?/i.test(l));
  const totalAmounts = total ? [...total.matchAll(amountPattern)].map((m) => m[1]!) : [];
  if (totalAmounts.length >= 2) return Number(totalAmounts[0]!.replace(/,/g, ''));
  const rated = lines
    .map((l) => [...l.matchAll(amountPattern)].map((m) => m[1]!))
    .filter((amounts) => amounts.some((a) => feeRate.test(a)))
    .map((amounts) => amounts[amounts.findIndex((a) => feeRate.test(a)) - 1])
    .filter((a): a is string => a !== undefined);
  return rated.length === 1 ? Number(rated[0]!.replace(/,/g, '')) : null;
}

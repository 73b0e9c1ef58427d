// The "Members" section: its pages and their addresses under /dashboard/members.
import { Route, Routes } from 'react-router';
import { InviteMemberPage } from '../pages/members/InviteMember.tsx';
import { MembersPage } from '../pages/members/Members.tsx';
import { TransferOwnershipPage } from '../pages/members/TransferOwnership.tsx';

export function MembersSection() {
  return (
    <Routes>
      <Route index element={<MembersPage />} />
      <Route path="invite" element={<InviteMemberPage />} />
      <Route path="transfer" element={<TransferOwnershipPage />} />
    </Routes>
  );
}

// The "Invitation" section: its pages and their addresses under /dashboard/invitations. The link
// of an invitation email is /dashboard/invitations/<id>?token=…; without a session, the signed-in
// layout sends the person to "Sign in" and back here, token included.
import { Route, Routes } from 'react-router';
import { InvitationPage } from '../pages/invitations/Invitation.tsx';
import { MyInvitationsPage } from '../pages/invitations/MyInvitations.tsx';

export function InvitationSection() {
  return (
    <Routes>
      <Route index element={<MyInvitationsPage />} />
      <Route path=":id" element={<InvitationPage />} />
    </Routes>
  );
}

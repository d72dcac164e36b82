/** The console's routes: login, then the screens the operator's role may use inside the layout. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router-dom';
import { Layout } from './Layout';
import { LoginScreen } from './Login';
import { AuditScreen } from './screens/Audit';
import { CertsScreen } from './screens/Certs';
import { DepositsScreen } from './screens/Deposits';
import { MarketScreen } from './screens/Market';
import { MemberDetailScreen, MembersScreen } from './screens/Members';
import { OperatorsScreen } from './screens/Operators';
import { SettingsScreen } from './screens/Settings';
import { SolvencyScreen } from './screens/Solvency';
import { WithdrawalsScreen } from './screens/Withdrawals';
import { SCREENS } from './screens-list';
import { useSession, type Grant } from './session';

function Allowed({ grants, children }: { grants: readonly Grant[]; children: ReactNode }) {
  const { t } = useTranslation();
  const { can } = useSession();
  if (grants.some(can)) return children;
  return (
    <p className="admin-state" role="alert">
      {t('errors.forbidden')}
    </p>
  );
}

function Home() {
  const { can } = useSession();
  const first = SCREENS.find((s) => s.grants.some(can));
  return <Navigate to={first ? `/${first.path}` : '/members'} replace />;
}

function NotFound() {
  const { t } = useTranslation();
  return <p className="admin-state">{t('errors.notFound')}</p>;
}

const grantsOf = (path: string) => SCREENS.find((s) => s.path === path)?.grants ?? [];

export function AdminApp() {
  const { t } = useTranslation();
  const { operator, ready } = useSession();
  if (!ready)
    return (
      <p className="admin-state" role="status">
        {t('common.loading')}
      </p>
    );
  if (!operator)
    return (
      <Routes>
        <Route path="*" element={<LoginScreen />} />
      </Routes>
    );
  const guard = (path: string, element: ReactNode) => <Allowed grants={grantsOf(path)}>{element}</Allowed>;
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route path="login" element={<Home />} />
        <Route path="withdrawals" element={guard('withdrawals', <WithdrawalsScreen />)} />
        <Route path="deposits" element={guard('deposits', <DepositsScreen />)} />
        <Route path="certs" element={guard('certs', <CertsScreen />)} />
        <Route path="members" element={guard('members', <MembersScreen />)} />
        <Route path="members/:id" element={guard('members', <MemberDetailScreen />)} />
        <Route path="solvency" element={guard('solvency', <SolvencyScreen />)} />
        <Route path="market" element={guard('market', <MarketScreen />)} />
        <Route path="audit" element={guard('audit', <AuditScreen />)} />
        <Route path="operators" element={guard('operators', <OperatorsScreen />)} />
        <Route path="settings" element={guard('settings', <SettingsScreen />)} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

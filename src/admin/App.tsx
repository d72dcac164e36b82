/** The console's routes: login, then the screens the operator's role may use inside the layout. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Switch } from '../lib/router';
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
  if (!operator) return <LoginScreen />;
  const guard = (path: string, element: ReactNode) => <Allowed grants={grantsOf(path)}>{element}</Allowed>;
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <Home />
        </Route>
        <Route path="/login">
          <Home />
        </Route>
        <Route path="/withdrawals">{guard('withdrawals', <WithdrawalsScreen />)}</Route>
        <Route path="/deposits">{guard('deposits', <DepositsScreen />)}</Route>
        <Route path="/certs">{guard('certs', <CertsScreen />)}</Route>
        <Route path="/members">{guard('members', <MembersScreen />)}</Route>
        <Route path="/members/:id">{guard('members', <MemberDetailScreen />)}</Route>
        <Route path="/solvency">{guard('solvency', <SolvencyScreen />)}</Route>
        <Route path="/market">{guard('market', <MarketScreen />)}</Route>
        <Route path="/audit">{guard('audit', <AuditScreen />)}</Route>
        <Route path="/operators">{guard('operators', <OperatorsScreen />)}</Route>
        <Route path="/settings">{guard('settings', <SettingsScreen />)}</Route>
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </Layout>
  );
}

/**
 * Operators (admins only): create one with a role, after which its TOTP secret and otpauth URL are shown
 * once, for the admin to hand over out of band; change a role; disable or re-enable.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Operator, OperatorRole } from '../../../contract/admin/model';
import { Dialog } from '../../ui/Dialog';
import { FormDialog } from '../../ui/FormDialog';
import { Field, SelectField } from '../../ui/Field';
import { adminCall } from '../api';
import { ActionDialog, ErrorAlert } from '../components';
import { csvFilename, type CsvColumn } from '../csv';
import { errorMessage, isoTime, useAdminQuery, useFormatTime } from '../hooks';
import { useSession } from '../session';
import { QueueScreen, RowAction, type Column } from '../table';

const ROLES: readonly OperatorRole[] = ['reviewer', 'finance', 'admin'];

const COLUMNS: CsvColumn<Operator>[] = [
  { header: 'id', value: (o) => o.id },
  { header: 'username', value: (o) => o.username },
  { header: 'role', value: (o) => o.role },
  { header: 'disabled', value: (o) => o.disabled },
  { header: 'created_at', value: (o) => isoTime(o.createdAt) },
  { header: 'last_login_at', value: (o) => isoTime(o.lastLoginAt) },
];

type Created = { operator: Operator; totpSecret: string; otpauthUrl: string };
type Acting =
  | { kind: 'role' | 'disable'; operator: Operator }
  | { kind: 'create' }
  | { kind: 'created'; created: Created };

export function OperatorsScreen() {
  const { t } = useTranslation();
  const { operator: me } = useSession();
  const time = useFormatTime();
  const query = useAdminQuery('GET /api/admin/operators', {});
  const [acting, setActing] = useState<Acting | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rows = query.data ?? [];
  const roleOptions = ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }));

  async function toggleDisabled(o: Operator) {
    await adminCall('POST /api/admin/operators/update', { id: o.id, disabled: !o.disabled });
    setActing(null);
    setNotice(t('operators.updated', { name: o.username }));
    query.reload();
  }

  const columns: Column<Operator>[] = [
    { header: t('field.id'), cell: (o) => o.id },
    {
      header: t('field.username'),
      cell: (o) => (
        <>
          {o.username}
          {o.id === me?.id && <span className="admin-sub">{t('operators.you')}</span>}
        </>
      ),
    },
    { header: t('field.role'), cell: (o) => t(`roles.${o.role}`) },
    {
      header: t('field.status'),
      cell: (o) => (
        <span className={`admin-badge admin-badge-${o.disabled ? 'rejected' : 'success'}`}>
          {t(o.disabled ? 'operators.disabled' : 'operators.active')}
        </span>
      ),
    },
    {
      header: t('field.lastLogin'),
      cell: (o) => (o.lastLoginAt ? time(o.lastLoginAt) : t('operators.never')),
    },
    {
      header: t('field.actions'),
      className: 'admin-actions',
      cell: (o) =>
        o.id !== me?.id && (
          <>
            <RowAction
              label={t('operators.changeRoleLabel', { name: o.username })}
              onClick={() => setActing({ kind: 'role', operator: o })}
            >
              {t('operators.changeRole')}
            </RowAction>
            <RowAction
              label={t(o.disabled ? 'operators.enableLabel' : 'operators.disableLabel', { name: o.username })}
              tone={o.disabled ? undefined : 'danger'}
              onClick={() => setActing({ kind: 'disable', operator: o })}
            >
              {t(o.disabled ? 'operators.enable' : 'operators.disable')}
            </RowAction>
          </>
        ),
    },
  ];

  return (
    <QueueScreen
      name="operators"
      title={t('nav.operators')}
      actions={
        <button type="button" className="button primary" onClick={() => setActing({ kind: 'create' })}>
          {t('operators.create')}
        </button>
      }
      csv={{ filename: csvFilename('operators'), rows: () => Promise.resolve(rows) }}
      csvColumns={COLUMNS}
      notice={notice}
      query={query}
      rows={rows}
      columns={columns}
    >
      {acting?.kind === 'create' && (
        <CreateOperatorDialog
          roleOptions={roleOptions}
          onClose={() => setActing(null)}
          onCreated={(created) => {
            setActing({ kind: 'created', created });
            query.reload();
          }}
        />
      )}
      {acting?.kind === 'created' && (
        <Dialog
          title={t('operators.createdTitle', { name: acting.created.operator.username })}
          onClose={() => setActing(null)}
          actions={
            <button type="button" className="button primary" onClick={() => setActing(null)}>
              {t('operators.secretDone')}
            </button>
          }
        >
          <p className="admin-warning">{t('operators.secretOnce')}</p>
          <p>
            <strong>{t('operators.secret')}</strong>
          </p>
          <p className="admin-secret admin-mono" data-testid="totp-secret">
            {acting.created.totpSecret}
          </p>
          <p>
            <strong>{t('operators.otpauth')}</strong>
          </p>
          <p className="admin-secret admin-mono">{acting.created.otpauthUrl}</p>
        </Dialog>
      )}
      {acting?.kind === 'role' && (
        <RoleDialog
          operator={acting.operator}
          roleOptions={roleOptions}
          onClose={() => setActing(null)}
          onDone={() => {
            setNotice(t('operators.updated', { name: acting.operator.username }));
            setActing(null);
            query.reload();
          }}
        />
      )}
      {acting?.kind === 'disable' && (
        <ActionDialog
          title={t(acting.operator.disabled ? 'operators.enableTitle' : 'operators.disableTitle', {
            name: acting.operator.username,
          })}
          confirmLabel={t(acting.operator.disabled ? 'operators.enable' : 'operators.disable')}
          onConfirm={() => toggleDisabled(acting.operator)}
          onClose={() => setActing(null)}
        >
          <p>{t(acting.operator.disabled ? 'operators.enableHint' : 'operators.disableHint')}</p>
        </ActionDialog>
      )}
    </QueueScreen>
  );
}

function CreateOperatorDialog({
  roleOptions,
  onClose,
  onCreated,
}: {
  roleOptions: { value: string; label: string }[];
  onClose: () => void;
  onCreated: (created: Created) => void;
}) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<OperatorRole>('reviewer');
  const invalid = !username.trim() || !password;

  return (
    <FormDialog
      title={t('operators.createTitle')}
      submitLabel={t('operators.create')}
      onClose={onClose}
      invalid={invalid}
      onSubmit={async () =>
        onCreated(
          await adminCall('POST /api/admin/operators/create', { username: username.trim(), password, role }),
        )
      }
      renderFailure={(err) => <ErrorAlert text={errorMessage(t, err)} />}
    >
      {(attempted) => (
        <>
          <Field
            label={t('field.username')}
            value={username}
            autoComplete="off"
            required
            onChange={(e) => setUsername(e.target.value)}
            error={attempted && !username.trim() ? t('login.usernameRequired') : undefined}
          />
          <Field
            label={t('login.password')}
            type="password"
            value={password}
            autoComplete="new-password"
            required
            onChange={(e) => setPassword(e.target.value)}
            error={attempted && !password ? t('login.passwordRequired') : undefined}
          />
          <SelectField
            label={t('field.role')}
            value={role}
            onChange={(v) => setRole(v as OperatorRole)}
            options={roleOptions}
          />
        </>
      )}
    </FormDialog>
  );
}

function RoleDialog({
  operator,
  roleOptions,
  onClose,
  onDone,
}: {
  operator: Operator;
  roleOptions: { value: string; label: string }[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [role, setRole] = useState<OperatorRole>(operator.role);
  return (
    <ActionDialog
      title={t('operators.roleTitle', { name: operator.username })}
      confirmLabel={t('common.save')}
      disabled={role === operator.role}
      onConfirm={async () => {
        await adminCall('POST /api/admin/operators/update', { id: operator.id, role });
        onDone();
      }}
      onClose={onClose}
    >
      <SelectField
        label={t('field.role')}
        value={role}
        onChange={(v) => setRole(v as OperatorRole)}
        options={roleOptions}
      />
    </ActionDialog>
  );
}

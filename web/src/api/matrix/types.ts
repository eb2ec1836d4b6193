/**
 * Accounts, groups, release tasks, review and platform apps (docs/api-matrix.md). The server's answers are
 * generated from its OpenAPI document (`make api-types` writes ../schema.d.ts); the string unions the pages
 * switch on are narrowings, and request bodies stay written here.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type Platform = Schemas['Platform'];
export type TaskPlatform = Schemas['TaskPlatform'];
export type AccountStatus = Schemas['AuthState'];
export type AccountType = 'personal' | 'enterprise';

export type Account = Omit<Schemas['AccountView'], 'account_type' | 'status'> & {
  account_type: AccountType;
  status: AccountStatus;
};

export type AccountSummary = Schemas['AccountSummary'];

/** get_qrCode: dy/ks open a consent page, sph/xhs/shop show a QR code. */
export type AuthStart = Schemas['AuthStart'];

export type QrLoginState = Schemas['QrState'];

export type QrLoginStatus = Omit<Schemas['QrStatus'], 'state' | 'account'> & { state: QrLoginState; account?: Account | null };
/** What a QR login call answers: how it starts (no `login_id` given) or where it stands. */
export type QrAnswer = AuthStart | QrLoginStatus;

export type Poi = Schemas['PoiView'];

/**
 * A matrix group (store::matrix::groups::Group). Hand-written: in the OpenAPI document the name `Group` is
 * taken by the shot group (store::materials::shot_groups::Group), so `/task.merchant_matrix_group/index`
 * is documented with the wrong row type.
 */
export type AccountGroup = Schemas['AccountGroup'];

/** What adding or renaming a matrix group answers. */
export type GroupName = Schemas['GroupName'];

/** getAccountGroup: every group with its accounts (id 0 = ungrouped). */
export type GroupWithAccounts = Omit<Schemas['GroupWithAccounts'], 'accounts'> & { accounts: Account[] };

export type MountType = 'none' | 'poi' | 'mini_program' | 'official' | 'product';
export type TimeMode = 'random' | 'specified' | 'timed';
export type ReviewState = Schemas['Review'];
export type ItemState = Schemas['ItemState'];

/** What a release task is made of; `*_add` and the createPublishTask calls take it. */
export type TaskReq = Schemas['TaskReq'];

export type PlanItem = Schemas['PlanItem'];

export type Plan = Schemas['Plan'];

export type StateCounts = Schemas['ItemCounts'];

export type Task = Omit<Schemas['TaskView'], 'review_state' | 'time_mode' | 'mount_type'> & {
  review_state: ReviewState;
  time_mode: TimeMode;
  mount_type: MountType;
};

/** A review row: the task with its merchant. */
export type AuditTask = Task;

/** An item; `comments` are the texts it posts, `comment_count` its comments on the platform. */
export type Item = Omit<Schemas['ItemView'], 'account' | 'state' | 'review_state'> & {
  account: Schemas['ItemAccount'];
  state: ItemState;
  review_state: ReviewState;
};

export type VideoSource = Schemas['VideoSource'];

export type ForwardVideo = Schemas['Pickable'];

export type ForwardConfig = Omit<Schemas['ForwardConfig'], 'mount_types' | 'accounts'> & {
  mount_types: MountType[];
  accounts: Account[];
};

export type AtUser = Schemas['AiteUser'];

export type MiniProgram = Schemas['MiniProgram'];

/** A task's new schedule (`*_edit_time`). */
export type ScheduleReq = Schemas['TimeReq'];

export type AuthKind = 'oauth' | 'qr_session' | 'app_token';

export type PlatformApp = Omit<Schemas['AppView'], 'auth_kind' | 'mode'> & {
  auth_kind: AuthKind;
  mode: 'live' | 'sandbox';
};

/** What saving an app's credentials answers (the key masked). */
export type AppSaved = Schemas['AppSaved'];

/**
 * Accounts, groups, release tasks, review and platform apps (docs/api-matrix.md). The server's answers are
 * generated from its OpenAPI document (`make api-types` writes ../schema.d.ts); each type here aliases its
 * schema as it is (the server's views carry their enums and the actions a row offers), and request bodies stay
 * written here.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type Platform = Schemas['Platform'];
export type TaskPlatform = Schemas['TaskPlatform'];
export type AccountStatus = Schemas['AuthState'];
export type AccountType = Schemas['AccountType'];

export type Account = Schemas['AccountView'];

export type AccountSummary = Schemas['AccountSummary'];

/** get_qrCode: dy/ks open a consent page, sph/xhs/shop show a QR code. */
export type AuthStart = Schemas['AuthStart'];

export type QrLoginState = Schemas['QrState'];

export type QrLoginStatus = Schemas['QrStatus'];
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
export type GroupWithAccounts = Schemas['GroupWithAccounts'];

export type MountType = Schemas['MountType'];
export type ContentDeclaration = Schemas['ContentDeclaration'];
export type TimeMode = Schemas['TimeMode'];
export type ReviewState = Schemas['Review'];
export type ItemState = Schemas['ItemState'];

/** What a release task is made of; `*_add` and the createPublishTask calls take it. */
export type TaskReq = Schemas['TaskReq'];

/** One post of a release batch, every cell as the sheet held it (`batch_read`, `batch_add`). */
export type BatchRow = Schemas['BatchRow'];
/** A batch row's bad cell, in the console's language. */
export type BatchRowError = Schemas['RowErrorView'];
/** A read sheet: its rows and their errors. */
export type BatchSheet = Schemas['BatchSheet'];
export type BatchAdded = Schemas['BatchAdded'];
/** What an import of accounts' groups and remarks did. */
export type NotesImported = Schemas['NotesImported'];

export type PlanItem = Schemas['PlanItem'];

export type Plan = Schemas['Plan'];

export type StateCounts = Schemas['ItemCounts'];

/** A release task; `actions` are its buttons, each enabled when the server accepts it now. */
export type Task = Schemas['TaskView'];
export type TaskOffer = Schemas['Offer_TaskAction'];
export type TaskAction = TaskOffer['action'];

/** A review row: the task with its merchant. */
export type AuditTask = Task;

/** An item; `comments` are the texts it posts, `comment_count` its comments on the platform. */
export type Item = Schemas['ItemView'];
/** An item's button: publish now (waiting), retry (failed), send comments (out); enabled when the server accepts it now. */
export type ItemOffer = Schemas['Offer_ItemAction'];
export type ItemAction = ItemOffer['action'];

export type VideoSource = Schemas['VideoSource'];

export type ForwardVideo = Schemas['Pickable'];
/** What a release task posts: videos, or one image note (图文) on each account. */
export type TaskKind = Schemas['TaskKind'];
/** A picture of the image library an image note can post. */
export type NoteImage = Schemas['MediaView'];

export type ForwardConfig = Schemas['ForwardConfig'];

export type AtUser = Schemas['AiteUser'];

export type MiniProgram = Schemas['MiniProgram'];

/** A task's new schedule (`*_edit_time`). */
export type ScheduleReq = Schemas['TimeReq'];

export type AuthKind = Schemas['AuthKind'];
export type AppMode = Schemas['AppMode'];

export type PlatformApp = Schemas['AppView'];
export type ServiceMode = Schemas['ServiceModeView'];
export type CanaryState = Schemas['CanaryState'];

/** The data vendor's configuration (masked key, where benchmark figures come from now). */
export type VendorApp = Schemas['VendorView'];

/** What saving an app's credentials answers (the key masked). */
export type AppSaved = Schemas['AppSaved'];

//! Every user-facing server message, in zh-CN and English. Handlers name a `Msg`; the error layer
//! renders it in the caller's language.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// Reads an `accept-language` header: anything starting with `en` is English, else zh-CN.
    pub fn from_header(v: Option<&str>) -> Lang {
        match v {
            Some(s) if s.trim().to_ascii_lowercase().starts_with("en") => Lang::En,
            _ => Lang::Zh,
        }
    }
}

/// A platform's name for people (lists, exports, messages); an unknown code is shown as it is.
pub fn platform_name(code: &str, lang: Lang) -> String {
    let (zh, en) = match code {
        "dy" => ("抖音", "Douyin"),
        "ks" => ("快手", "Kuaishou"),
        "sph" => ("视频号", "WeChat Channels"),
        "xhs" => ("小红书", "Xiaohongshu"),
        "bjh" => ("百家号", "Baijiahao"),
        "shop" => ("抖店", "Douyin Shop"),
        "mixed" => ("多平台", "Several platforms"),
        // Not a platform: the outside service with a mode of its own on Platform apps.
        "wechat" => ("微信公众号通知", "WeChat notices"),
        _ => return code.to_string(),
    };
    match lang {
        Lang::Zh => zh,
        Lang::En => en,
    }
    .to_string()
}

macro_rules! messages {
    ($($name:ident => $zh:literal, $en:literal;)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Msg { $($name),* }
        impl Msg {
            pub const ALL: &'static [Msg] = &[$(Msg::$name),*];
            /// The message's stable name: what a row stores to render it later in its reader's
            /// language.
            pub fn key(self) -> &'static str {
                match self { $(Msg::$name => stringify!($name)),* }
            }
            pub fn from_key(key: &str) -> Option<Msg> {
                match key { $(stringify!($name) => Some(Msg::$name),)* _ => None }
            }
            /// The template in a language; `{name}` placeholders are filled by `render`.
            pub fn template(self, lang: Lang) -> &'static str {
                match (self, lang) {
                    $((Msg::$name, Lang::Zh) => $zh, (Msg::$name, Lang::En) => $en,)*
                }
            }
        }
    };
}

messages! {
    Ok => "操作成功", "ok";
    TokenMissing => "请先登录", "Please sign in first";
    TokenInvalid => "登录已失效，请重新登录", "Your sign-in is invalid or has expired, please sign in again";
    SessionRevoked => "登录状态已失效（密码已修改或账号已停用），请重新登录", "Your session was ended (password changed or account disabled), please sign in again";
    Forbidden => "您没有「{function}」的权限，请联系企业管理员开通", "You have no access to {function}; ask your account owner to grant it";
    LibraryForbidden => "您没有「{library}」的权限，不能修改其中的文件，请联系企业管理员开通", "You have no access to {library} and cannot change its files; ask your account owner to grant it";
    MerchantOnly => "该功能仅限企业账号使用", "This function is for merchant accounts";
    AdminOnly => "仅平台管理员可用", "Administrator only";
    VipOnly => "该功能为会员功能，请充值VIP", "This function is a membership function, please recharge VIP";
    NotFound => "记录不存在", "The record does not exist";
    Internal => "服务器错误，请稍后重试（请求编号 {request_id}）", "Server error, please try again later (request id {request_id})";
    Required => "{field} 不能为空", "{field} is required";
    InvalidValue => "{field} 的值无效：{reason}", "{field} is invalid: {reason}";
    ProxyNotUsed => "代理仅用于创作者后台登录的账号（小红书、视频号、小店）", "A proxy is used only by accounts logged in to a creator console (Xiaohongshu, WeChat Channels, the shop)";
    UriTooLong => "请求地址过长：最多 {max} 个字符，请减少筛选条件", "The request URL is too long: at most {max} characters; use fewer filters";
    BodyTooLarge => "请求内容过大：参数最多 {max}，文件请用上传功能", "The request is too large: parameters are limited to {max}; send files with an upload";
    TooLong => "{field} 不能超过 {max} 个字符", "{field} must be at most {max} characters";
    OutOfRange => "{field} 须在 {min} 到 {max} 之间", "{field} must be between {min} and {max}";
    TooManyValues => "{field} 最多可选 {max} 个值", "{field} takes at most {max} values";
    TooManyFilters => "一次最多 {max} 个筛选条件", "At most {max} filters in one request";
    AgreementRequired => "请阅读并同意服务协议和隐私协议", "Please read and agree to the service and privacy agreements";
    BadCredentials => "账号或密码错误，还可尝试 {left} 次", "Wrong account or password, {left} attempts left";
    BadCode => "验证码错误或已过期，还可尝试 {left} 次", "The code is wrong or has expired, {left} attempts left";
    Locked => "错误次数过多，已锁定，请于 {until} 后再试", "Too many failed attempts; locked until {until}";
    SignInThrottled => "登录失败次数过多，请 {seconds} 秒后再试", "Too many failed sign-ins; try again in {seconds} s";
    AccountDisabled => "账号已停用", "The account is disabled";
    NotStaffAccount => "该账号不是员工账号，请使用企业账号登录", "This is not a staff account, use the enterprise account login";
    StaffUseStaffLogin => "员工账号请使用员工登录", "Staff accounts sign in with the staff login";
    MobileInvalid => "手机号格式不正确", "The mobile number is invalid";
    MobileNotRegistered => "该手机号未注册", "No account uses this mobile number";
    MobileTaken => "该手机号已被使用", "This mobile number is already in use";
    SmsTooFrequent => "验证码发送过于频繁，请 {seconds} 秒后再试", "Codes are limited to one a minute; try again in {seconds} s";
    SmsDailyLimit => "该手机号今天已收到 {count} 条验证码，请明天再试", "This number has had {count} codes today; try again tomorrow";
    SmsBusy => "验证码请求过多，请 {seconds} 秒后再试", "Too many code requests; try again in {seconds} s";
    SmsRefused => "短信未能发送：{reason}", "The SMS could not be sent: {reason}";
    SmsUnavailable => "短信暂时无法发送，请稍后再试；若持续失败请联系管理员", "The SMS could not be sent now; try again later, or tell the operator if it keeps failing";
    PasswordWeak => "新密码至少8位，且须同时包含字母和数字", "The new password needs 8+ characters with both letters and digits";
    PasswordMismatch => "两次输入的密码不一致", "The passwords entered twice are inconsistent";
    OldPasswordWrong => "当前密码不正确", "The current password is wrong";
    UsernameTaken => "用户名已存在", "The username is already taken";
    UsernameInvalid => "用户名须为 3-32 位字母、数字、下划线或短横线", "The username must be 3-32 letters, digits, '_' or '-'";
    ProxyTokenInvalid => "代理登录凭证无效或已过期", "The proxy sign-in token is invalid or has expired";
    // Personal API tokens and downloads (issue 44).
    ApiTokenScopes => "请至少选择一个权限范围", "Choose at least one scope";
    ApiTokenExpiry => "有效期须为 1 至 {max} 天", "The expiry must be 1 to {max} days";
    ApiTokensMax => "每个账号最多 {max} 个有效的 API 令牌，请先撤销不用的", "An account has at most {max} active API tokens; revoke one you no longer use first";
    ApiTokenScope => "该 API 令牌的权限范围（{scopes}）不允许此操作", "This API token's scopes ({scopes}) do not allow this call";
    ApiTokenRate => "该 API 令牌请求过于频繁，请 {seconds} 秒后再试", "Too many calls with this API token; try again in {seconds} s";
    DownloadTooMany => "一次最多打包下载 {max} 个视频", "At most {max} videos can be zipped at once";
    ExportTooMany => "一次最多导出 {max} 行，当前筛选的结果更多，请缩小筛选范围后再导出", "An export holds at most {max} rows and these filters select more; narrow the filters and export again";
    DownloadTooLarge => "所选视频超过打包上限（{max} MB），请分批下载", "The selected videos exceed the zip limit ({max} MB); download them in smaller batches";
    PointsInsufficient => "点数不足：需要 {need}，剩余 {balance}", "Not enough points: {need} needed, {balance} left";
    PointsInvalid => "点数必须为正整数", "Points must be a positive whole number";
    ReasonWelcome => "注册赠送", "Welcome points";
    ReasonTopup => "充值", "Top-up";
    ReasonVideoSynthesis => "视频合成", "Video synthesis";
    ReasonVideoSynthesisFailed => "视频合成失败，点数退还", "Video synthesis failed, points returned";
    ReasonVideoSynthesisCancelled => "视频合成已取消，点数退还", "Video synthesis cancelled, points returned";
    ReasonSubtitleRecognition => "字幕识别", "Subtitle recognition";
    ReasonSubtitleRecognitionFailed => "字幕识别失败，点数退还", "Subtitle recognition failed, points returned";
    ReasonSubtitleRecognitionNotStarted => "字幕识别未能开始，点数退还", "Subtitle recognition could not start, points returned";
    OperatorSystem => "系统", "System";
    MenuNotGrantable => "菜单 {id} 不可授权", "Menu {id} cannot be granted";
    JobNotRetryable => "只有失败或终止的任务可以重试", "Only failed or dead jobs can be retried";
    RoleInUse => "角色仍在使用中", "The role is still in use";
    CannotDisableSelf => "不能停用自己的账号", "You cannot disable your own account";
    NotAnImage => "上传文件警告：所选文件不是图片", "upload file warning: the selected file is not an image";
    ImageUndecodable => "图片已损坏或无法解码", "The image is damaged or cannot be decoded";
    ImageTooLarge => "图片尺寸 {size} 过大：最多 4000 万像素，每边最多 16384 像素", "The image is {size}: at most 40 megapixels and 16384 pixels a side are accepted";
    FileTooLarge => "上传文件大小不能超过 {n}MB！", "upload file size cannot exceed {n}MB!";
    FileEmpty => "文件是空的", "The file is empty";
    FileTypeNotAllowed => "不支持的文件类型，这里只接受：{allowed}", "This file type is not accepted here; allowed: {allowed}";
    MediaUnreadable => "无法读取该媒体文件：{reason}", "The media file cannot be read: {reason}";
    VideoTooLong => "视频时长不能超过约 15 分钟（当前 {minutes} 分钟）", "Videos can be about 15 minutes at most (this one is {minutes} min)";
    FileNameInvalid => "文件名无效", "The file name is invalid";
    NameBidi => "{field} 含有改变文字方向的控制字符，请去掉后重试", "{field} contains characters that change the text direction; remove them and try again";
    FontInvalid => "不是有效的 TTF/OTF 字体文件", "Not a valid TTF/OTF font file";
    MaterialInUse => "该素材正在被使用：{uses}，请先移除这些引用", "This material is in use by {uses}; remove those uses first";
    GroupNotEmpty => "该分组还有 {count} 个素材，确认后素材将移到“未分组”", "This group still holds {count} materials; confirm to move them to 'ungrouped'";
    UploadIncomplete => "上传未完成：还缺 {missing} 个分片", "The upload is not complete: {missing} chunks missing";
    UploadExpired => "上传会话不存在或已过期，请重新上传", "The upload session does not exist or has expired; upload again";
    ChunkInvalid => "分片无效：{reason}", "Invalid chunk: {reason}";
    AsrNotInstalled => "字幕识别引擎未安装：{hint}", "Speech recognition is not installed: {hint}";
    AsrBusy => "该素材正在识别字幕，请稍候", "Subtitles are already being recognized for this material";
    AsrNoAudio => "该素材没有音频，无法识别字幕", "This material has no audio to recognize";
    SubtitleTiming => "字幕时间无效：{reason}", "Invalid subtitle timing: {reason}";
    TooFewGroups => "至少需要三个镜头组", "At least three shot groups are needed";
    TooManyTracks => "一次最多选择 {max} 个文件", "At most {max} files in one selection";
    TooManyShots => "使用转场时最多 {max} 个镜头", "At most {max} shots when transitions are used";
    GroupReused => "镜头组“{name}”已被第 {first} 个镜头使用，第 {second} 个镜头请选择其他镜头组", "Shot group '{name}' is already used by shot {first}; choose another group for shot {second}";
    SlotsUnmatched => "按名称自动匹配时，模板的这些镜头没有找到镜头组：{shots}（有可用素材的镜头组 {count} 个，模板有 {slots} 个镜头）；请新建镜头组，或手动为每个镜头选择镜头组", "Matching by name found no shot group for these template shots: {shots} ({count} groups have ready clips, the template has {slots} shots); add groups or pick a group for each shot";
    GroupEmpty => "镜头组“{name}”里还没有可用的素材", "Shot group '{name}' has no ready clips yet";
    OverCapacity => "这些镜头组最多还能生成 {capacity} 条不重复的视频，无法生成 {requested} 条", "These shot groups allow only {capacity} more unique videos, not {requested}";
    ShorterThanVoice => "配音长 {voice} 秒：这些镜头组只剩 {capacity} 条不重复的组合不短于配音，无法生成 {requested} 条（另有 {short} 种组合比配音短，会截断配音，不予生成）；请加入更长的素材或缩短配音", "The voice-over lasts {voice} s: only {capacity} more unique combinations of these shot groups are at least that long, not {requested} ({short} shorter ones would cut the voice-over off and are not made); add longer clips or shorten the voice-over";
    MaterialMissing => "所选素材已被删除：{what}", "A chosen material was deleted: {what}";
    SmallPool => "素材较少（{count} 个），建议至少 80 个素材以保证视频差异", "Only {count} materials: at least 80 are recommended so the videos differ enough";
    ColorInvalid => "颜色须为 #RRGGBB", "The colour must be #RRGGBB";
    FontMissingGlyphs => "字体“{name}”没有这些字的字形：{chars}，烧录后会显示为方框；请换用包含这些字（如中文）的字体", "The font '{name}' has no glyphs for {chars}: burned in, they would show as boxes; choose a font that covers them (e.g. a Chinese font)";
    ProjectDisabled => "该项目已停用，请先启用", "This project is disabled; enable it first";
    VariantBusy => "视频正在合成中，请稍后再试", "The video is still being synthesized; try again later";
    LinkExpired => "链接已过期，请刷新页面", "The link has expired; reload the page";
    TitleEmpty => "第 {n} 个标题为空（标题之间用 # 分隔）", "Title {n} is empty (titles are separated by #)";
    TitleTooLong => "第 {n} 个标题超过 {max} 个字符", "Title {n} is longer than {max} characters";
    VideosFinished => "成品库视频", "Finished videos";
    VideosUploaded => "上传的视频", "Uploaded videos";
    CommentTooLong => "第 {n} 行评论超过 {max} 个字符", "Comment line {n} is longer than {max} characters";
    CommentContact => "第 {n} 行评论含联系方式或链接，不允许发布", "Comment line {n} contains contact details or a link, which is not allowed";
    CopyBlocked => "{field}含违规用语「{term}」：{rule}（{source}，规则 {rule_id}）{hint}", "{field} contains \"{term}\", which is not allowed: {rule} ({source}, rule {rule_id}){hint}";
    CopyWarned => "请确认用语「{term}」：{rule}（{source}，规则 {rule_id}）{hint}", "Please check \"{term}\": {rule} ({source}, rule {rule_id}){hint}";
    StartInPast => "开始日期不能早于今天", "The start date cannot be before today";
    DailyOverLimit => "每个账号每天最多发布 {max} 条视频", "At most {max} videos per account per day";
    TimesCount => "请填写 {n} 个发布时间", "Give {n} publish time(s)";
    PlatformRuleBroken => "{platform}的{rule}不能超过 {max}（当前 {value}）：{platform}账号无法发布这个任务", "{platform} allows at most {max} for {rule} (this task has {value}): its {platform} accounts cannot publish it";
    NoteImagesCount => "图文需要 {min}–{max} 张图片（当前 {count} 张）", "An image note takes {min}–{max} images (this one has {count})";
    NoteNotTaken => "{platform}账号无法发布图文（图文只能发布到抖音和小红书），请移除这些账号", "{platform} accounts cannot publish image notes (image notes go to Douyin and Xiaohongshu only); remove those accounts";
    NoteRuleBroken => "{platform}的图文{what}不能超过 {max}（当前 {value}）：{platform}账号无法发布这个图文", "{platform} allows at most {max} for an image note's {what} (this one: {value}): its {platform} accounts cannot publish it";
    NoteImageUnusable => "图片“{name}”不可用（不在本商户的图片库中或尚未处理完成）", "Image '{name}' cannot be used (not in this merchant's image library, or not ready)";
    NoteFramesFailed => "无法从视频“{name}”截取画面：{reason}", "Could not grab frames from the video '{name}': {reason}";
    AccountsOverVideos => "所选账号数（{accounts}）不能超过视频数（{videos}）", "The selected accounts ({accounts}) cannot outnumber the videos ({videos})";
    PublishCountOverVideos => "发布数量（{count}）不能超过所选视频数（{videos}）", "The publish count ({count}) cannot exceed the selected videos ({videos})";
    AccountUnusable => "账号“{name}”授权已过期或不属于该平台，请重新授权或移除", "Account '{name}' has expired or is not on this platform; re-authorize or remove it";
    VideoUnusable => "视频“{name}”不可发布（未合成成功或已被其他任务使用）", "Video '{name}' cannot be published (not successfully made, or used by another task)";
    VideoSameFile => "视频“{name}”与已选或已发布的视频是同一个文件，同一文件只发布一次", "Video '{name}' is the same file as a video already chosen or published; one file is posted once";
    MountRequired => "挂载类型为“{mount}”时必须填写 {what}", "Mount type '{mount}' needs {what}";
    PlatformRefused => "平台拒绝：{reason}", "The platform refused: {reason}";
    QrLoginUnknown => "扫码登录不存在或已过期，请重新获取二维码", "That QR login does not exist or has expired; get a new QR code";
    UseBjhLogin => "百家号请使用 app_id 与 app_token 授权", "Baijiahao accounts are authorized with app_id and app_token";
    WxSwitchedOff => "微信通知已在“平台应用”中关闭，未发送", "WeChat notices are switched off on Platform apps: not sent";
    PlatformCannotCarry => "{platform}的作品无法带上{part}（{why}）：请去掉{part}，或不选{platform}账号", "A {platform} post cannot carry {part} ({why}): drop {part}, or leave out the {platform} accounts";
    PlatformOff => "{platform}已在“平台应用”中关闭，不会向它发送任何请求", "{platform} is switched off on Platform apps: nothing is sent to it";
    PlatformNotConfigured => "{platform}未配置应用凭证（系统 → 平台应用），无法连接真实平台", "{platform} has no app credentials (System → Platform apps), so the real platform cannot be reached";
    BrowserMissing => "本服务器未安装创作者中心浏览器（scripts/browser/install.sh），无法连接{platform}", "The creator-console browser is not installed on this server (scripts/browser/install.sh), so {platform} cannot be reached";
    SandboxNotRunning => "沙箱未运行（CLIPMATRIX_SANDBOX=off），{platform}不能使用沙箱", "The sandbox is not running (CLIPMATRIX_SANDBOX=off), so {platform} cannot use it";
    AccountModeMismatch => "账号“{name}”是连接{mode}时授权的，而{platform}现在连接{now}：请切换回去或重新授权该账号", "Account '{name}' was authorized against {mode}, but {platform} now goes to {now}: switch it back or authorize the account again";
    ReasonRequired => "请填写驳回原因", "Give a reason for the rejection";
    ItemBusy => "有视频正在发布中，请稍后再试", "A video is being published right now; try again shortly";
    NotReviewing => "该任务已审核", "This task has already been reviewed";
    ItemNotPublished => "视频尚未发布成功，无法发送置顶评论", "The video is not published yet, so top comments cannot be sent";
    PlanUnplaced => "有 {count} 条视频超出 {days} 天 × 每天 {daily} 条的容量，不会发布", "{count} videos do not fit into {days} days × {daily} a day and stay unused";
    PlanChanged => "预览后发布计划已变化（时段已被其他任务占用或所选内容变了），已重新生成，请查看后再确认", "The plan changed since the preview (another task took a minute or the choice changed); here is the new one: check it and confirm again";
    PlanPassed => "预览的计划中 {at} 的发布时间已过，已重新生成，请查看后再确认", "The previewed post at {at} is already due; here is a new plan: check it and confirm again";
    PlanCrowdedDay => "{day}：发布数量超过 08:00–22:00 的分钟数，部分视频会在同一分钟发布", "{day}: more posts than minutes in 08:00–22:00, some share a minute";
    PlanDuplicateRisk => "“{video}”与账号“{account}”已发布的视频相似（重复风险 {score}），建议换一条视频", "'{video}' is like a video '{account}' already published (duplicate risk {score}): consider another video";
    ItemAccountRemoved => "账号已删除", "The account was removed";
    ItemAuthExpired => "账号授权已过期，请重新授权后重试", "The account's authorization has expired; authorize it again and retry";
    ItemReauthorize => "账号授权已失效，请重新授权：{reason}", "The account's authorization ended, authorize it again: {reason}";
    ItemRetrying => "重试中：{reason}", "retrying: {reason}";
    ItemRefused => "{reason}", "{reason}";
    ItemCannotPublish => "无法发布：{reason}", "Cannot publish: {reason}";
    ItemNotListed => "平台返回发布成功，但账号作品列表中没有该视频", "The platform said it was published, but the account's work list does not show it";
    ItemPlatformRejected => "平台审核未通过：{reason}", "Rejected by the platform's review: {reason}";
    ItemReviewRejected => "审核驳回：{reason}", "Rejected in review: {reason}";
    ItemNoRoom => "新的发布计划容纳不下该视频", "The new schedule has no room for this video";
    AccountUserRevoked => "平台通知：用户已取消授权", "The user revoked the authorization on the platform";
    NothingToPublish => "没有可发布的视频（需审核通过且未发布）", "Nothing to publish (the task must be approved and the video not yet published)";
    AuthStateInvalid => "授权链接无效或已过期，请重新发起授权", "The authorization link is invalid or has expired; start again";
    GroupNameTaken => "分组名称已存在", "A group with that name already exists";
    AlreadyTaken => "{field}已存在", "This {field} is already taken";
    NotCancellable => "只能取消正在合成的视频", "Only videos being synthesized can be cancelled";
    SliceSeconds => "{field} 须在 {min}–{max} 秒之间", "{field} must be between {min} and {max} seconds";
    SliceMinOverMax => "最短时长不能大于最长时长", "The shortest length cannot be longer than the longest";
    SliceNoLines => "视频“{name}”还没有识别出字幕，请先进行字幕识别", "Video '{name}' has no recognized subtitle lines; run subtitle recognition first";
    SliceNotVideo => "“{name}”不是已就绪的视频素材", "'{name}' is not a ready video material";
    SliceBusy => "有视频正在切片中，请稍后再试", "A video is still being sliced; try again later";
    SliceNotRunning => "只能取消正在切片的视频", "Only videos being sliced can be cancelled";
    AlreadyInLibrary => "该视频已在成片库中：{name}", "This video is already in the library: {name}";
    NotAVideo => "只能加入已处理完成的视频素材：{name}", "Only processed video materials can be added: {name}";
    PlatformUnknown => "未知平台：{platform}", "Unknown platform: {platform}";
    JobMatrixSync => "同步账号作品", "Sync account works";
    JobMatrixTokenRefresh => "刷新账号授权", "Refresh account token";
    JobPublishItem => "发布作品", "Publish a work";
    JobPublishReview => "查询审核结果", "Check review result";
    JobClipRender => "视频合成", "Render a video";
    JobClipSlice => "视频切片", "Slice a video";
    JobMediaAsr => "字幕识别", "Recognize subtitles";
    JobMediaIngest => "素材处理", "Process a material";
    JobMaintenanceCleanup => "定时清理", "Scheduled cleanup";
    VariantCancelled => "已取消合成", "cancelled by the user";
    SliceCancelled => "已取消切片", "cancelled";
    SliceSourceRemoved => "切片视频已移除", "the video was removed from the project";
    SliceProjectDeleted => "切片项目已删除", "the slicing project was deleted";
    SliceGroupDeleted => "目标分组已删除：{what}", "the target group was deleted: {what}";
    SliceSourceDeleted => "源视频已被删除：{name}", "the source video was deleted: {name}";
    SliceSourceNotReady => "源视频尚未处理完成：{name}", "the source video is not ready: {name}";
    SliceEmpty => "视频是空的：{name}", "the video is empty: {name}";
    PrizeOdds => "中奖概率须在 0.01% 到 100% 之间，最多两位小数", "Odds must be between 0.01% and 100%, with at most two decimals";
    PrizeOddsTotal => "所有奖品的中奖概率之和为 {total}，不能超过 100%", "The prizes' odds add up to {total}; they cannot exceed 100%";
    PrizeCount => "至少设置一个优惠券奖品，最多 {max} 个奖品", "Set at least one coupon prize and at most {max} prizes";
    PrizeInUse => "奖品“{name}”已发出 {issued} 张优惠券，不能删除", "Prize '{name}' has issued {issued} coupons and cannot be removed";
    PrizeStockBelowIssued => "奖品“{name}”已发出 {issued} 张，库存不能少于已发数量", "Prize '{name}' has issued {issued}; its stock cannot be lower";
    ActivityEndsBeforeStart => "结束时间须晚于开始时间", "The end must be later than the start";
    ActivityNotRunning => "活动未开始或已结束", "The activity has not started or has ended";
    DrawLimitTotal => "您已抽过 {max} 次，次数已用完", "You have drawn {max} times; no draws left";
    DrawLimitDay => "今天的 {max} 次抽奖机会已用完，明天再来", "Today's {max} draws are used up; come back tomorrow";
    DrawNeedsPost => "发布视频后才能抽奖", "Post the video first to draw";
    CouponUnknown => "券码不存在", "No coupon has this code";
    CouponRedeemed => "该券已于 {at} 由 {by} 核销", "This coupon was redeemed at {at} by {by}";
    CouponExpired => "该券已于 {at} 过期", "This coupon expired at {at}";
    PoolEmpty => "视频已发完，请联系商家补充", "All videos have been handed out; ask the shop to add more";
    TagUnknown => "该标签未启用或不存在", "This tag is not in use";
    TooFast => "操作太频繁，请 {seconds} 秒后再试", "Too many requests; try again in {seconds} s";
    CookiesNeeded => "请允许本页使用 Cookie 后重新打开", "Allow this page to use cookies, then open it again";
    PoolMissing => "视频池不存在：{what}", "The video pool does not exist: {what}";
    NfcPoolLow => "NFC 标签“{name}”的视频只剩 {left} 个", "NFC tag '{name}' has only {left} videos left";
    DrawThanks => "谢谢参与", "Thanks for taking part";
    BuiltInReadOnly => "内置分类和关键词只能由管理员修改", "Built-in categories and keywords can be changed by an Administrator only";
    BannedWord => "{field} 含有禁用词“{word}”", "{field} contains the banned word '{word}'";
    NoKeywords => "请填写关键词或商品描述（或在词库设置中填写品牌和商品）", "Give keywords or a product text (or set your brand and product in the lexicon settings)";
    UnknownStyle => "未知的标题类型：{code}", "Unknown title style: {code}";
    WriterNotConfigured => "未配置 AI 标题服务", "No AI title service is configured";
    WriterFailed => "AI 标题服务出错：{reason}", "The AI title service failed: {reason}";
    BenchmarkSyncFailed => "读取对标账号失败：{reason}", "Reading the benchmark account failed: {reason}";
    DataVendorNotConfigured => "未配置数据服务：对标账号的数据由 TikHub 提供，请在 系统 → 平台应用 填写 API Key", "No data vendor is configured: benchmark account data comes from TikHub; set its API key at System → Platform apps";
    JobSeoBenchmarkSync => "同步对标账号", "Sync benchmark accounts";
    LinkInvalid => "{field} 须为 http(s) 链接或本站地址（以 / 开头）", "{field} must be an http(s) link or a path of this site (starting with /)";
    CourseBodyRequired => "图文教程须填写中文正文", "A rich-text course needs its Chinese text";
    JobContentHotlistSync => "刷新热榜", "Refresh hot lists";
    HotBoardUnknown => "{field} 不是本页的榜单：{board}（可选：{allowed}）", "{field} is not a board of this page: {board} (one of: {allowed})";
    JobEngagementSync => "同步评论", "Sync comments";
    JobEngagementAutoReply => "评论自动回复", "Auto-reply to comments";
    JobEngagementLeadNotify => "新线索微信通知", "WeChat notice of a new lead";
    NoCommentApi => "{platform} 没有开放评论接口，无法同步或回复评论", "{platform} has no comment API: its comments cannot be synced or replied to";
    ReplyRefused => "平台拒绝了回复：{reason}", "The platform refused the reply: {reason}";
    NoMessageApi => "{platform} 没有开放私信接口，请在平台 App 内回复私信", "{platform} has no private-message API: answer its messages in the platform's app";
    MessageNoScope => "授权时未获得私信权限（im.direct_message，抖音仅授予企业号），请用企业号重新授权并勾选私信", "The authorization lacks the private-message scope (im.direct_message, which Douyin grants to business accounts only): authorize again with a business account and tick private messages";
    MessageRefused => "平台拒绝了私信：{reason}", "The platform refused the message: {reason}";
    WxNotConfigured => "未配置微信公众号：新线索只在控制台内通知", "No WeChat official account is configured: new leads are notified in the console only";
    WxDisabled => "微信通知已关闭", "WeChat notification is switched off";
    WxNotBound => "跟进人未绑定微信 openid", "The assignee has no WeChat openid bound";
    WxServerTokenMissing => "请先填写公众号服务器配置的令牌(Token)，扫码绑定才能收到微信的推送", "Set the official account's server Token first: binding by QR code needs WeChat's pushes";
    WxQrRefused => "微信未能生成绑定二维码：{reason}", "WeChat could not make the binding QR code: {reason}";
    WxBindCodeUnknown => "绑定二维码不存在或已失效，请重新生成", "The binding QR code is unknown or no longer valid: make a new one";
    WxRefused => "微信拒绝了通知：{reason}", "WeChat refused the notice: {reason}";
    LeadMove => "线索不能从“{from}”改为“{to}”", "A lead cannot move from '{from}' to '{to}'";
    AssigneeInvalid => "只能分配给拥有线索菜单的在职员工", "Leads can be assigned only to active staff who have the leads menu";
    // ---- AI voice (area ai) ----
    TtsNothingToSay => "{field} 中没有可朗读的文字", "{field} has nothing that can be read aloud";
    TtsUnknownVoice => "没有这个音色：{voice}", "There is no such voice: {voice}";
    TtsNotInstalled => "语音合成引擎未安装（{hint}）", "The speech synthesis engine is not installed ({hint})";
    TtsFailed => "语音合成失败：{reason}", "Speech synthesis failed: {reason}";
    TtsProviderFailed => "语音合成服务出错：{reason}", "The speech synthesis service failed: {reason}";
    TtsNotDone => "配音任务尚未完成", "The voice task has not finished";
    TtsBusy => "配音任务正在合成，完成后才能删除", "The voice task is being synthesized; delete it when it has finished";
    AuditionPlaying => "上一段试听还在合成，请等它结束后再试听", "Your previous audition is still being synthesized; try again once it has finished";
    AuditionsPerMinute => "试听太频繁：每分钟最多 {max} 次，请 {seconds} 秒后再试", "Too many auditions: at most {max} a minute; try again in {seconds} s";
    JobTts => "AI 配音合成", "Synthesize an AI voice-over";
    JobClipOneTouch => "AI 一键成片", "Make one-touch videos";
    OneTouchFailed => "所有视频都合成失败，点数已退还：{reason}", "Every video failed to render; the points were returned: {reason}";
    OneTouchSeconds => "视频时长须为 {min}–{max} 秒", "The video length must be {min}–{max} seconds";
    OneTouchKind => "素材类型须为视频片段（video）或图片（image）", "The footage must be video clips (video) or images (image)";
    TooFewImages => "至少需要三张可用的图片（当前 {count} 张）", "At least three ready images are needed ({count} now)";
    FootageShorterThanTarget => "素材不够长：所选镜头组的片段每条视频最多能配约 {have} 秒的口播，这条口播约 {need} 秒。请缩短视频时长，或加入更长的片段、更多镜头组", "The footage is too short: the chosen groups' clips carry about {have} s of voice-over per video, this one runs about {need} s. Shorten the video, or add longer clips or more shot groups";
    FootageTooShort => "素材太短：所选镜头组的片段只能覆盖 {have} 秒，配音有 {need} 秒", "The footage is too short: the chosen groups' clips cover {have} s of the {need} s voice-over";
    JobClipIntellect => "AI 智能剪辑", "AI smart editing";
    JobPlatformCanary => "平台页面检查", "Platform page check";
    IntellectNothingFound => "“{name}”中没有找到 {min}–{max} 秒、不含长静音的片段", "No segment of {min}–{max} s without a long silence was found in '{name}'";
    IntellectBusy => "智能剪辑正在进行，完成后才能删除", "The smart editing run is still working; delete it when it has finished";
    IntellectNotFailed => "只有失败的智能剪辑才能重试", "Only a failed smart editing run can be retried";
    CloneNotConfigured => "未配置声音复刻服务，请联系平台管理员配置后再试", "No voice cloning service is configured; ask the Administrator to set one up";
    CloneFailed => "声音复刻服务出错：{reason}", "The voice cloning service failed: {reason}";
    CloneSampleInvalid => "声音样本须为 10 秒到 5 分钟的音频（{reason}）", "The voice sample must be audio of 10 s to 5 min ({reason})";
    CozeTokenWithheld => "智能助手的访问令牌由服务器保管，不对外提供", "The assistant's access token stays on the server; it is not handed out";
    ReasonTts => "AI 配音", "AI voice-over";
    ReasonTtsFailed => "AI 配音失败，点数退还", "AI voice-over failed, points returned";
    ReasonTtsNotStarted => "AI 配音未能开始，点数退还", "AI voice-over could not start, points returned";
    // Reports.
    DateInvalid => "{field} 须为 YYYY-MM-DD 格式的日期", "{field} must be a date as YYYY-MM-DD";
    DateOrder => "开始日期不能晚于结束日期", "The start date cannot be after the end date";
    SpanTooLong => "时间范围最多 {max} 天", "The range can be at most {max} days";
    ImportedVideos => "导入或上传的视频（无混剪配方）", "Imported or uploaded videos (no mixing recipe)";
    // Imports (issue 44): a sheet is checked as a whole; every bad row is named.
    ImportRowsInvalid => "表格中有 {count} 行有误，未导入任何内容：{rows}", "{count} rows of the sheet are wrong; nothing was imported: {rows}";
    ImportRow => "第 {row} 行“{column}”：{reason}", "row {row}, {column}: {reason}";
    ImportMoreRows => "……另有 {count} 行", "… and {count} more rows";
    ImportEmpty => "表格中没有数据行（第一行是表头）", "The sheet has no rows (the first row is the header)";
    ImportTooManyRows => "表格最多 {max} 行（当前 {count} 行），请分成几个表格导入", "A sheet can have at most {max} rows (this one has {count}); split it";
    ImportTooLarge => "表格文件不能超过 {max}", "The sheet file can be at most {max}";
    ImportUnreadable => "无法读取表格（请上传 xlsx 或 CSV 文件）：{reason}", "The sheet cannot be read (upload an xlsx or CSV file): {reason}";
    ImportNoColumn => "表格缺少“{column}”列，请使用模板的表头", "The sheet has no '{column}' column; use the template's header";
    ImportVideoUnknown => "没有编号为 {id} 的已完成视频", "There is no finished video {id}";
    ImportVideoUsed => "视频 {id} 已被其他任务使用", "Video {id} is already used by another task";
    ImportVideoTwice => "视频 {id} 在第 {row} 行已经用过", "Video {id} is already used in row {row}";
    ImportAccountUnknown => "没有账号“{name}”", "There is no account '{name}'";
    ImportAccountAmbiguous => "有 {count} 个账号叫“{name}”，请填写账号编号", "{count} accounts are named '{name}'; give the account's ID";
    ImportAccountTwice => "账号“{name}”在第 {row} 行已经出现过", "Account '{name}' is already in row {row}";
    ImportAccountUnusable => "账号“{name}”的授权已过期", "Account '{name}' has expired";
    ImportGroupUnknown => "没有分组“{name}”", "There is no group '{name}'";
    ImportGroupEmpty => "分组“{name}”中没有可用的账号", "Group '{name}' has no usable account";
    ImportAccountOrGroup => "请填写账号或分组（二选一）", "Give an account or a group (one of them)";
    ImportTimeInvalid => "“{value}”不是时间，请写成 YYYY-MM-DD HH:mm（北京时间）", "'{value}' is not a time; write YYYY-MM-DD HH:mm (China time)";
    ImportTimePassed => "发布时间 {at} 已过", "The publish time {at} has passed";
    ImportAccountDayOver => "账号“{name}”在 {day} 有 {count} 条，每个账号每天最多 {max} 条", "Account '{name}' has {count} posts on {day}; at most {max} per account per day";
    ImportWordUnknown => "“{value}”不是可选的值（可选：{allowed}）", "'{value}' is not one of the choices ({allowed})";
    // Resource limits.
    ControlChar => "{field} 含有控制字符（{char}），请去掉后重试", "{field} contains a control character ({char}); remove it and try again";
    PasswordChecksBusy => "同时登录的请求过多，请 {seconds} 秒后再试", "Too many sign-ins at once; try again in {seconds} s";
}

impl Msg {
    /// Fills `{key}` placeholders with the given values.
    pub fn render(self, lang: Lang, args: &[(&str, String)]) -> String {
        let mut s = self.template(lang).to_string();
        for (k, v) in args {
            s = s.replace(&format!("{{{k}}}"), v);
        }
        s
    }
}

/// The arguments as `lang` reads them: of a pair `name.zh` / `name.en`, the one in `lang` as `name`.
pub fn in_lang<'a>(args: &'a [(&'a str, String)], lang: Lang) -> Vec<(&'a str, String)> {
    let mine = match lang {
        Lang::Zh => ".zh",
        Lang::En => ".en",
    };
    args.iter()
        .filter_map(|(k, v)| {
            if let Some(base) = k.strip_suffix(mine) {
                Some((base, v.clone()))
            } else if k.ends_with(".zh") || k.ends_with(".en") {
                None
            } else {
                Some((*k, v.clone()))
            }
        })
        .collect()
}

/// Something a use case has to tell the reader (a warning, a note) as a message key and its
/// arguments: the words are chosen where the reader's language is known (`api::words`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub msg: Msg,
    pub args: Vec<(&'static str, String)>,
}

impl Said {
    pub fn new(msg: Msg, args: Vec<(&'static str, String)>) -> Said {
        Said { msg, args }
    }

    pub fn render(&self, lang: Lang) -> String {
        self.msg.render(lang, &self.args)
    }
}

/// A reason stored in a row (a failure, a cancellation) instead of words: `@` and the message's key,
/// then its arguments as a JSON object when it has any. [`localize_reason`] renders it when read, in
/// the reader's language.
pub fn reason(msg: Msg, args: &[(&str, &str)]) -> String {
    if args.is_empty() {
        return format!("@{}", msg.key());
    }
    let args: serde_json::Map<String, serde_json::Value> = args
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
        .collect();
    format!("@{} {}", msg.key(), serde_json::Value::Object(args))
}

/// What a stored reason says in `lang`: a [`reason`] code rendered; a `中文 / English` pair written
/// by older versions in the reader's language; any other text (a tool's own words) as it is.
pub fn localize_reason(stored: &str, lang: Lang) -> String {
    if let Some(code) = stored.strip_prefix('@') {
        let (key, args) = code.split_once(' ').unwrap_or((code, ""));
        if let Some(msg) = Msg::from_key(key) {
            let args: Vec<(String, String)> = serde_json::from_str::<serde_json::Map<_, _>>(args)
                .unwrap_or_default()
                .into_iter()
                .map(|(k, v)| (k, v.as_str().map(str::to_string).unwrap_or_default()))
                .collect();
            let args: Vec<(&str, String)> =
                args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            return msg.render(lang, &args);
        }
    }
    match (stored.split_once(" / "), lang) {
        (Some((zh, _)), Lang::Zh) if has_han(zh) => zh.trim().to_string(),
        (Some((zh, en)), Lang::En) if has_han(zh) => en.trim().to_string(),
        _ => stored.to_string(),
    }
}

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// The language a customer wrote in: English when the text has Latin letters and no Chinese
/// character, Chinese otherwise (an answer goes back in the customer's language).
pub fn written_in(s: &str) -> Lang {
    if !has_han(s) && s.chars().any(|c| c.is_ascii_alphabetic()) {
        Lang::En
    } else {
        Lang::Zh
    }
}

/// Display names of form fields, so a 422 names the field in the caller's language.
pub fn field_label(field: &str, lang: Lang) -> String {
    let zh = match field {
        "username" => "用户名",
        "password" => "密码",
        "old_password" => "当前密码",
        "password_confirm" => "确认密码",
        "mobile" => "手机号",
        "code" => "验证码",
        "nickname" => "昵称",
        "name" | "merchant_name" => "名称",
        "points" => "点数",
        "menu_ids" => "菜单",
        "login_type" => "登录方式",
        "agree" => "协议",
        "id" => "编号",
        "page" => "页码",
        "limit" | "pageSize" => "每页条数",
        "filterObj" => "筛选条件",
        "order" => "排序方向",
        "scene" => "场景",
        "proxyToken" => "代理凭证",
        "status" => "状态",
        "permissions" => "权限",
        "file" => "文件",
        "file_name" => "文件名",
        "group_id" => "分组",
        "chunk" => "分片",
        "upload_id" => "上传编号",
        "resource_id" => "素材",
        "lines" => "字幕",
        "field" => "字段",
        "groups" => "镜头组",
        "title" => "标题",
        "count" => "数量",
        "music" => "背景音乐",
        "voice" => "配音",
        "subtitles" => "字幕",
        "value" => "值",
        "titles" => "标题",
        "topics" => "话题",
        "top_comments" => "置顶评论",
        "at_users" => "@用户",
        "time_mode" => "发布时间模式",
        "start_date" => "开始日期",
        "days" => "天数",
        "daily_quantity" => "每日数量",
        "times" => "发布时间",
        "account_ids" => "发布账号",
        "video_ids" => "视频",
        "publish_count" => "发布数量",
        "platform" => "平台",
        "remarks" => "备注",
        "reason" => "原因",
        "app_id" => "应用 ID",
        "app_token" => "应用令牌",
        "client_key" => "应用 Key",
        "client_secret" => "应用密钥",
        "keyword" => "关键词",
        "open_id" => "账号",
        "mount_type" => "挂载类型",
        "login_id" => "扫码登录",
        "sms_code" => "短信验证码",
        "mode" => "切片方式",
        "seconds" => "切片时长",
        "min_seconds" => "最短时长",
        "max_seconds" => "最长时长",
        "resource_ids" => "视频",
        "project_id" => "项目",
        "starts_at" => "开始时间",
        "ends_at" => "结束时间",
        "who" => "抽奖资格",
        "per_person" => "每人次数",
        "per_day" => "每日次数",
        "color" => "页面颜色",
        "rules_text" => "活动规则",
        "prizes" => "奖品",
        "prize_name" => "奖品名称",
        "prize_kind" => "奖品类型",
        // the generic word: SEO lexicons, materials and course kinds use this field name too
        "kind" => "类型",
        "odds" => "中奖概率",
        "stock" => "发放数量",
        "description" => "说明",
        "valid_days" => "有效天数",
        "pool_kind" => "视频池类型",
        "pool_id" => "视频池",
        "activity_id" => "活动",
        "tag_id" => "标签",
        "category" => "分类",
        "body_kind" => "正文类型",
        "title_en" => "英文标题",
        "summary" => "简介",
        "summary_en" => "英文简介",
        "cover" => "封面",
        "video_url" => "视频地址",
        "body" => "正文",
        "body_en" => "英文正文",
        "sort" => "排序",
        "image" => "图片",
        "link" => "链接",
        "version" => "版本号",
        "content" => "更新内容",
        "content_en" => "英文更新内容",
        "keywords" => "关键词",
        "words" => "词语",
        "replies" => "回复内容",
        "match_mode" => "匹配方式",
        "start_minute" => "开始时间",
        "end_minute" => "结束时间",
        "daily_cap" => "每日回复上限",
        "min_gap_s" => "回复间隔",
        "item_ids" => "视频",
        // a reply's text (engagement) and a voice-over script (AI voice) share the name
        "text" => "文本内容",
        "assignee_id" => "跟进人",
        // private messages and WeChat notices
        "conversation_id" => "会话",
        "account_id" => "账号",
        "openid" => "微信 openid",
        "app_secret" => "应用密钥",
        "template_id" => "模板 ID",
        "server_token" => "服务器令牌",
        "user_id" => "员工",
        "note" => "跟进记录",
        "state" => "状态",
        // AI voice
        "volume" => "音量",
        "speed" => "语速",
        "intonation" => "语调",
        "task_id" => "配音任务",
        "speaker_id" => "复刻音色",
        "slots" => "模板镜头",
        "group_ids" => "所选镜头组",
        "topic" => "主题",
        "variants" => "生成数量",
        _ => "",
    };
    match lang {
        Lang::Zh if !zh.is_empty() => zh.to_string(),
        _ => field.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_has_both_languages_and_same_placeholders() {
        for m in Msg::ALL {
            let zh = m.template(Lang::Zh);
            let en = m.template(Lang::En);
            assert!(!zh.is_empty() && !en.is_empty(), "{m:?}");
            let holes = |s: &str| {
                let mut v: Vec<String> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|p| p.split('}').next().map(str::to_string))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(holes(zh), holes(en), "{m:?}");
        }
    }

    #[test]
    fn spec_wording_is_kept() {
        assert_eq!(
            Msg::PasswordMismatch.template(Lang::En),
            "The passwords entered twice are inconsistent"
        );
        assert_eq!(
            Msg::VipOnly.template(Lang::En),
            "This function is a membership function, please recharge VIP"
        );
        assert_eq!(Lang::from_header(Some("en-US,en;q=0.9")), Lang::En);
        assert_eq!(Lang::from_header(Some("zh-cn")), Lang::Zh);
        assert_eq!(Lang::from_header(None), Lang::Zh);
    }

    #[test]
    fn every_message_is_found_by_its_key() {
        for m in Msg::ALL {
            assert_eq!(Msg::from_key(m.key()), Some(*m));
        }
        assert_eq!(Msg::NotFound.key(), "NotFound");
        assert_eq!(Msg::from_key("nope"), None);
    }

    #[test]
    fn kind_is_the_generic_word_and_the_prize_has_its_own() {
        // the SEO lexicon's, materials' and courses' `kind` once read "prize type"
        assert_eq!(field_label("kind", Lang::Zh), "类型");
        assert_eq!(field_label("prize_kind", Lang::Zh), "奖品类型");
    }

    #[test]
    fn render_fills_placeholders() {
        let s = Msg::TooLong.render(Lang::En, &[("field", "title".into()), ("max", "20".into())]);
        assert_eq!(s, "title must be at most 20 characters");
    }

    #[test]
    fn stored_reasons_are_localized_when_read() {
        let plain = reason(Msg::SliceCancelled, &[]);
        assert_eq!(plain, "@SliceCancelled");
        assert_eq!(localize_reason(&plain, Lang::Zh), "已取消切片");
        assert_eq!(localize_reason(&plain, Lang::En), "cancelled");
        let with = reason(Msg::SliceSourceDeleted, &[("name", "a \"b\" / c.mp4")]);
        assert_eq!(
            localize_reason(&with, Lang::En),
            "the source video was deleted: a \"b\" / c.mp4"
        );
        assert_eq!(
            localize_reason(&with, Lang::Zh),
            "源视频已被删除：a \"b\" / c.mp4"
        );
        for m in Msg::ALL {
            assert_eq!(Msg::from_key(m.key()), Some(*m));
        }
        // Rows written by older versions: a zh/en pair shows one language; other words stay.
        let old = "已取消合成 / cancelled by the user";
        assert_eq!(localize_reason(old, Lang::Zh), "已取消合成");
        assert_eq!(localize_reason(old, Lang::En), "cancelled by the user");
        assert_eq!(localize_reason("ffmpeg: a / b", Lang::Zh), "ffmpeg: a / b");
        assert_eq!(localize_reason("", Lang::En), "");
        assert_eq!(localize_reason("@NoSuchKey", Lang::En), "@NoSuchKey");
    }
}

import type security from './security.en_US';
import type { LocaleTree } from './types';

/** 两步验证与访问令牌的中文文本（`security` 命名空间）。 */
const securityZh: LocaleTree<typeof security> = {
  mfa: {
    title: '两步验证',
    lead: '登录时除密码外，还需输入手机验证器应用中的动态验证码。',
    on: '已开启',
    off: '未开启',
    turnOn: '开启',
    turnOff: '关闭',
    setupTitle: '设置两步验证',
    scan: '使用验证器应用（Google Authenticator、Microsoft Authenticator、1Password 等）扫描此二维码。',
    manual: '或在应用中手动输入此密钥：',
    code: '应用显示的六位验证码',
    codeRule: '请输入应用显示的六位数字',
    codeOrRecovery: '应用中的验证码，或一个恢复码',
    codeOrRecoveryRule: '请输入应用显示的六位数字，或一个恢复码',
    password: '账号密码',
    passwordRule: '请输入密码',
    confirm: '确认',
    recoveryLead:
      '两步验证已开启。请妥善保存以下恢复码：手机不在身边时，每个恢复码可登录一次。恢复码仅显示这一次。',
    done: '完成',
    enrolTitle: '设置两步验证后继续',
    enrolLead: '本网盘要求所有账号开启两步验证。',
  },
  tokens: {
    title: '访问令牌',
    lead: '令牌可让 WebDAV 客户端、脚本等程序以您的身份访问。开启两步验证后，请使用令牌作为 WebDAV 密码。',
    name: '令牌名称',
    nameRule: '请输入不超过 64 个字符的名称',
    generate: '生成',
    created: '创建时间',
    lastUsed: '最近使用',
    never: '从未使用',
    scope: '权限',
    scopes: {
      read: '只读',
      readWrite: '读写',
      webdav: '仅 WebDAV',
    },
    expires: '过期时间',
    neverExpires: '永不过期',
    expired: '已过期',
    securityNote: '令牌不能修改密码、两步验证或令牌。',
    none: '暂无访问令牌',
    delete: '删除',
    deleteConfirm: '删除“{{name}}”？使用它的程序将立即无法访问。',
    madeTitle: '新的访问令牌',
    once: '请立即复制：它不会再次显示。',
    done: '完成',
  },
};

export default securityZh;

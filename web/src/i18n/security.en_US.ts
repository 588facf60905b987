/** Two-factor sign-in and access tokens (the `security` namespace). */
const security = {
  mfa: {
    title: 'Two-factor sign-in',
    lead: 'Sign in with your password and a code from an authenticator app on your phone.',
    on: 'On',
    off: 'Off',
    turnOn: 'Turn on',
    turnOff: 'Turn off',
    setupTitle: 'Set up two-factor sign-in',
    scan: 'Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).',
    manual: 'Or type this key into the app:',
    code: 'The six-digit code the app shows',
    codeRule: 'Enter the six digits your app shows',
    codeOrRecovery: 'A code from your app, or a recovery code',
    codeOrRecoveryRule: 'Enter the six digits your app shows, or a recovery code',
    confirm: 'Confirm',
    recoveryLead:
      'Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once if your phone is not at hand. They are shown only now.',
    done: 'Done',
    enrolTitle: 'Set up two-factor sign-in to continue',
    enrolLead: 'This drive requires two-factor sign-in for every account.',
  },
  tokens: {
    title: 'Access tokens',
    lead: 'Tokens let programs such as WebDAV clients and scripts act as you. With two-factor sign-in on, use a token as your WebDAV password.',
    name: 'Token name',
    nameRule: 'Enter a name of at most 64 characters',
    generate: 'Generate',
    created: 'Created',
    lastUsed: 'Last used',
    never: 'Never',
    none: 'No access tokens',
    delete: 'Delete',
    deleteConfirm: 'Delete "{{name}}"? Programs using it stop working at once.',
    madeTitle: 'Your new access token',
    once: 'Copy it now: it will not be shown again.',
    done: 'Done',
  },
};

export default security;

// The words of the workspace's own chrome (the page around the app's messages, and the Sign in
// with Slack page), in the language a person chose beside "Acting as", as Slack shows its own
// interface in the language of its preferences. What the app writes comes from the app. Six
// languages, the ones the app speaks; any other of Slack's reads English. Plain data and string
// functions, with no DOM and no Node: the page and the server both read it. Values are put in as
// given: the page's renderer and the server's HTML escape them.

export interface PageWords {
  /** `<html lang>`. */
  lang: string;
  sandboxWorkspace: string;
  actingAs: string;
  language: string;
  conversations: string;
  channels: string;
  apps: string;
  sandbox: string;
  runDigest: string;
  reset: string;
  digestRan: string;
  digestNone: string;
  digestSent(count: number): string;
  tabs(app: string): string;
  home: string;
  messages: string;
  composerOff: string;
  message: string;
  messageTo(where: string): string;
  suggestions: string;
  attachFile: string;
  send: string;
  removeFile(name: string): string;
  fileToAttach(label: string): string;
  moreActions: string;
  replyInThread: string;
  editMessage: string;
  deleteMessage: string;
  edited: string;
  onlyVisibleToYou: string;
  replies(count: number): string;
  deletedMessage: string;
  messageDeleted: string;
  deleteConfirm: string;
  cancel: string;
  delete: string;
  save: string;
  thread: string;
  closeThread: string;
  reply: string;
  replyPlaceholder: string;
  close: string;
  dismiss: string;
  somethingWentWrong: string;
  signInTo(where: string): string;
  whoAreYou: string;
  signIn: string;
  wantsToKnow(app: string): string;
  wantsToConfirm(app: string, team: string): string;
  signedInAs: string;
  willSee: string;
  continue: string;
  notYou: string;
}

const en: PageWords = {
  lang: 'en',
  sandboxWorkspace: 'Sandbox workspace',
  actingAs: 'Acting as',
  language: 'Language',
  conversations: 'Conversations',
  channels: 'Channels',
  apps: 'Apps',
  sandbox: 'Sandbox',
  runDigest: 'Run daily digest now',
  reset: 'Reset',
  digestRan: 'The daily digest ran.',
  digestNone: 'Nobody is due a daily DM: none sent.',
  digestSent: (n) => `Sent ${n} daily ${n === 1 ? 'DM' : 'DMs'}.`,
  tabs: (app) => `${app} tabs`,
  home: 'Home',
  messages: 'Messages',
  composerOff: 'Sending messages to this app has been turned off.',
  message: 'Message',
  messageTo: (where) => `Message ${where}`,
  suggestions: 'Suggestions',
  attachFile: 'Attach a file',
  send: 'Send',
  removeFile: (name) => `Remove ${name}`,
  fileToAttach: (label) => `${label}: file to attach`,
  moreActions: 'More actions',
  replyInThread: 'Reply in thread',
  editMessage: 'Edit message',
  deleteMessage: 'Delete message',
  edited: '(edited)',
  onlyVisibleToYou: 'Only visible to you',
  replies: (n) => `${n} ${n === 1 ? 'reply' : 'replies'}`,
  deletedMessage: 'Deleted message',
  messageDeleted: 'This message was deleted.',
  deleteConfirm: 'Delete this message? This can’t be undone.',
  cancel: 'Cancel',
  delete: 'Delete',
  save: 'Save',
  thread: 'Thread',
  closeThread: 'Close thread',
  reply: 'Reply',
  replyPlaceholder: 'Reply…',
  close: 'Close',
  dismiss: 'Dismiss',
  somethingWentWrong: 'Something went wrong',
  signInTo: (where) => `Sign in to ${where}`,
  whoAreYou: 'Who are you?',
  signIn: 'Sign in',
  wantsToKnow: (app) =>
    `${app} wants to know who you are, and nobody is signed in to this workspace in this browser.`,
  wantsToConfirm: (app, team) => `${app} wants to confirm who you are on ${team}.`,
  signedInAs: 'Signed in as',
  willSee: 'It will see your name, e-mail address and Slack user id.',
  continue: 'Continue',
  notYou:
    'Not you? Choose who you are with "Acting as" in the workspace page, then open the link again.',
};

const de: PageWords = {
  lang: 'de',
  sandboxWorkspace: 'Sandbox-Workspace',
  actingAs: 'Handelnd als',
  language: 'Sprache',
  conversations: 'Unterhaltungen',
  channels: 'Channels',
  apps: 'Apps',
  sandbox: 'Sandbox',
  runDigest: 'Tägliche Übersicht jetzt senden',
  reset: 'Zurücksetzen',
  digestRan: 'Die tägliche Übersicht wurde ausgeführt.',
  digestNone: 'Niemand bekommt gerade eine tägliche DM: keine gesendet.',
  digestSent: (n) => (n === 1 ? '1 tägliche DM gesendet.' : `${n} tägliche DMs gesendet.`),
  tabs: (app) => `Tabs von ${app}`,
  home: 'Startseite',
  messages: 'Nachrichten',
  composerOff: 'Das Senden von Nachrichten an diese App wurde deaktiviert.',
  message: 'Nachricht',
  messageTo: (where) => `Nachricht an ${where}`,
  suggestions: 'Vorschläge',
  attachFile: 'Datei anhängen',
  send: 'Senden',
  removeFile: (name) => `${name} entfernen`,
  fileToAttach: (label) => `${label}: anzuhängende Datei`,
  moreActions: 'Weitere Aktionen',
  replyInThread: 'Im Thread antworten',
  editMessage: 'Nachricht bearbeiten',
  deleteMessage: 'Nachricht löschen',
  edited: '(bearbeitet)',
  onlyVisibleToYou: 'Nur für dich sichtbar',
  replies: (n) => (n === 1 ? '1 Antwort' : `${n} Antworten`),
  deletedMessage: 'Gelöschte Nachricht',
  messageDeleted: 'Diese Nachricht wurde gelöscht.',
  deleteConfirm: 'Diese Nachricht löschen? Das kann nicht rückgängig gemacht werden.',
  cancel: 'Abbrechen',
  delete: 'Löschen',
  save: 'Speichern',
  thread: 'Thread',
  closeThread: 'Thread schließen',
  reply: 'Antworten',
  replyPlaceholder: 'Antworten …',
  close: 'Schließen',
  dismiss: 'Ausblenden',
  somethingWentWrong: 'Etwas ist schiefgelaufen',
  signInTo: (where) => `Bei ${where} anmelden`,
  whoAreYou: 'Wer bist du?',
  signIn: 'Anmelden',
  wantsToKnow: (app) =>
    `${app} möchte wissen, wer du bist, und in diesem Browser ist niemand bei diesem Workspace angemeldet.`,
  wantsToConfirm: (app, team) => `${app} möchte bestätigen, wer du bei ${team} bist.`,
  signedInAs: 'Angemeldet als',
  willSee: 'Die App sieht deinen Namen, deine E-Mail-Adresse und deine Slack-Benutzer-ID.',
  continue: 'Weiter',
  notYou:
    'Nicht du? Wähle auf der Seite des Workspace unter „Handelnd als“, wer du bist, und öffne den Link dann noch einmal.',
};

const fr: PageWords = {
  lang: 'fr',
  sandboxWorkspace: 'Espace de travail sandbox',
  actingAs: 'Agir en tant que',
  language: 'Langue',
  conversations: 'Conversations',
  channels: 'Canaux',
  apps: 'Applications',
  sandbox: 'Sandbox',
  runDigest: 'Envoyer le récapitulatif quotidien',
  reset: 'Réinitialiser',
  digestRan: 'Le récapitulatif quotidien a été lancé.',
  digestNone: 'Personne n’attend de DM quotidien\u202f: aucun envoyé.',
  digestSent: (n) => (n === 1 ? '1 DM quotidien envoyé.' : `${n} DM quotidiens envoyés.`),
  tabs: (app) => `Onglets de ${app}`,
  home: 'Accueil',
  messages: 'Messages',
  composerOff: 'L’envoi de messages à cette application a été désactivé.',
  message: 'Message',
  messageTo: (where) => `Envoyer un message à ${where}`,
  suggestions: 'Suggestions',
  attachFile: 'Joindre un fichier',
  send: 'Envoyer',
  removeFile: (name) => `Retirer ${name}`,
  fileToAttach: (label) => `${label}\u202f: fichier à joindre`,
  moreActions: 'Plus d’actions',
  replyInThread: 'Répondre dans le fil',
  editMessage: 'Modifier le message',
  deleteMessage: 'Supprimer le message',
  edited: '(modifié)',
  onlyVisibleToYou: 'Visible uniquement par vous',
  replies: (n) => (n <= 1 ? `${n} réponse` : `${n} réponses`),
  deletedMessage: 'Message supprimé',
  messageDeleted: 'Ce message a été supprimé.',
  deleteConfirm: 'Supprimer ce message\u202f? Cette action est irréversible.',
  cancel: 'Annuler',
  delete: 'Supprimer',
  save: 'Enregistrer',
  thread: 'Fil de discussion',
  closeThread: 'Fermer le fil',
  reply: 'Répondre',
  replyPlaceholder: 'Répondre…',
  close: 'Fermer',
  dismiss: 'Ignorer',
  somethingWentWrong: 'Un problème est survenu',
  signInTo: (where) => `Se connecter à ${where}`,
  whoAreYou: 'Qui êtes-vous\u202f?',
  signIn: 'Se connecter',
  wantsToKnow: (app) =>
    `${app} veut savoir qui vous êtes, et personne n’est connecté à cet espace de travail dans ce navigateur.`,
  wantsToConfirm: (app, team) => `${app} veut confirmer qui vous êtes sur ${team}.`,
  signedInAs: 'Connecté en tant que',
  willSee: 'L’application verra votre nom, votre adresse e-mail et votre identifiant Slack.',
  continue: 'Continuer',
  notYou:
    'Ce n’est pas vous\u202f? Choisissez qui vous êtes avec «\u202fAgir en tant que\u202f» sur la page de l’espace de travail, puis rouvrez le lien.',
};

const es: PageWords = {
  lang: 'es',
  sandboxWorkspace: 'Espacio de trabajo de prueba',
  actingAs: 'Actuando como',
  language: 'Idioma',
  conversations: 'Conversaciones',
  channels: 'Canales',
  apps: 'Aplicaciones',
  sandbox: 'Sandbox',
  runDigest: 'Enviar ahora el resumen diario',
  reset: 'Restablecer',
  digestRan: 'Se ejecutó el resumen diario.',
  digestNone: 'A nadie le toca un MD diario: no se envió ninguno.',
  digestSent: (n) => (n === 1 ? 'Se envió 1 MD diario.' : `Se enviaron ${n} MD diarios.`),
  tabs: (app) => `Pestañas de ${app}`,
  home: 'Inicio',
  messages: 'Mensajes',
  composerOff: 'Se desactivó el envío de mensajes a esta aplicación.',
  message: 'Mensaje',
  messageTo: (where) => `Enviar mensaje a ${where}`,
  suggestions: 'Sugerencias',
  attachFile: 'Adjuntar un archivo',
  send: 'Enviar',
  removeFile: (name) => `Quitar ${name}`,
  fileToAttach: (label) => `${label}: archivo para adjuntar`,
  moreActions: 'Más acciones',
  replyInThread: 'Responder en el hilo',
  editMessage: 'Editar mensaje',
  deleteMessage: 'Eliminar mensaje',
  edited: '(editado)',
  onlyVisibleToYou: 'Solo tú puedes verlo',
  replies: (n) => (n === 1 ? '1 respuesta' : `${n} respuestas`),
  deletedMessage: 'Mensaje eliminado',
  messageDeleted: 'Se eliminó este mensaje.',
  deleteConfirm: '¿Eliminar este mensaje? No se puede deshacer.',
  cancel: 'Cancelar',
  delete: 'Eliminar',
  save: 'Guardar',
  thread: 'Hilo',
  closeThread: 'Cerrar hilo',
  reply: 'Responder',
  replyPlaceholder: 'Responder…',
  close: 'Cerrar',
  dismiss: 'Descartar',
  somethingWentWrong: 'Algo salió mal',
  signInTo: (where) => `Iniciar sesión en ${where}`,
  whoAreYou: '¿Quién eres?',
  signIn: 'Iniciar sesión',
  wantsToKnow: (app) =>
    `${app} quiere saber quién eres, y nadie inició sesión en este espacio de trabajo en este navegador.`,
  wantsToConfirm: (app, team) => `${app} quiere confirmar quién eres en ${team}.`,
  signedInAs: 'Sesión iniciada como',
  willSee: 'Verá tu nombre, tu correo electrónico y tu ID de usuario de Slack.',
  continue: 'Continuar',
  notYou:
    '¿No eres tú? Elige quién eres en «Actuando como» en la página del espacio de trabajo y vuelve a abrir el enlace.',
};

const pt: PageWords = {
  lang: 'pt-BR',
  sandboxWorkspace: 'Workspace de testes',
  actingAs: 'Atuando como',
  language: 'Idioma',
  conversations: 'Conversas',
  channels: 'Canais',
  apps: 'Apps',
  sandbox: 'Sandbox',
  runDigest: 'Enviar o resumo diário agora',
  reset: 'Redefinir',
  digestRan: 'O resumo diário foi executado.',
  digestNone: 'Ninguém tem uma DM diária agora: nenhuma enviada.',
  digestSent: (n) => (n === 1 ? '1 DM diária enviada.' : `${n} DMs diárias enviadas.`),
  tabs: (app) => `Abas de ${app}`,
  home: 'Início',
  messages: 'Mensagens',
  composerOff: 'O envio de mensagens para este app foi desativado.',
  message: 'Mensagem',
  messageTo: (where) => `Mensagem para ${where}`,
  suggestions: 'Sugestões',
  attachFile: 'Anexar um arquivo',
  send: 'Enviar',
  removeFile: (name) => `Remover ${name}`,
  fileToAttach: (label) => `${label}: arquivo a anexar`,
  moreActions: 'Mais ações',
  replyInThread: 'Responder na conversa',
  editMessage: 'Editar mensagem',
  deleteMessage: 'Excluir mensagem',
  edited: '(editado)',
  onlyVisibleToYou: 'Só você pode ver',
  replies: (n) => (n === 1 ? '1 resposta' : `${n} respostas`),
  deletedMessage: 'Mensagem excluída',
  messageDeleted: 'Esta mensagem foi excluída.',
  deleteConfirm: 'Excluir esta mensagem? Não é possível desfazer.',
  cancel: 'Cancelar',
  delete: 'Excluir',
  save: 'Salvar',
  thread: 'Conversa',
  closeThread: 'Fechar conversa',
  reply: 'Responder',
  replyPlaceholder: 'Responder…',
  close: 'Fechar',
  dismiss: 'Dispensar',
  somethingWentWrong: 'Algo deu errado',
  signInTo: (where) => `Entrar em ${where}`,
  whoAreYou: 'Quem é você?',
  signIn: 'Entrar',
  wantsToKnow: (app) =>
    `${app} quer saber quem você é, e ninguém está conectado a este workspace neste navegador.`,
  wantsToConfirm: (app, team) => `${app} quer confirmar quem você é em ${team}.`,
  signedInAs: 'Conectado como',
  willSee: 'O app verá seu nome, seu e-mail e seu ID de usuário do Slack.',
  continue: 'Continuar',
  notYou:
    'Não é você? Escolha quem você é em “Atuando como” na página do workspace e abra o link de novo.',
};

const ja: PageWords = {
  lang: 'ja',
  sandboxWorkspace: 'サンドボックス ワークスペース',
  actingAs: '操作するユーザー',
  language: '言語',
  conversations: '会話',
  channels: 'チャンネル',
  apps: 'アプリ',
  sandbox: 'サンドボックス',
  runDigest: '日次ダイジェストを今すぐ送信',
  reset: 'リセット',
  digestRan: '日次ダイジェストを実行しました。',
  digestNone: '日次 DM の対象者はいません。送信していません。',
  digestSent: (n) => `日次 DM を ${n} 件送信しました。`,
  tabs: (app) => `${app} のタブ`,
  home: 'ホーム',
  messages: 'メッセージ',
  composerOff: 'このアプリへのメッセージ送信は無効になっています。',
  message: 'メッセージ',
  messageTo: (where) => `${where} へのメッセージ`,
  suggestions: '候補',
  attachFile: 'ファイルを添付',
  send: '送信',
  removeFile: (name) => `${name} を削除`,
  fileToAttach: (label) => `${label}: 添付するファイル`,
  moreActions: 'その他のアクション',
  replyInThread: 'スレッドで返信する',
  editMessage: 'メッセージを編集',
  deleteMessage: 'メッセージを削除',
  edited: '（編集済み）',
  onlyVisibleToYou: 'あなただけに表示されています',
  replies: (n) => `${n} 件の返信`,
  deletedMessage: '削除されたメッセージ',
  messageDeleted: 'このメッセージは削除されました。',
  deleteConfirm: 'このメッセージを削除しますか？元に戻すことはできません。',
  cancel: 'キャンセル',
  delete: '削除',
  save: '保存',
  thread: 'スレッド',
  closeThread: 'スレッドを閉じる',
  reply: '返信',
  replyPlaceholder: '返信する…',
  close: '閉じる',
  dismiss: '非表示にする',
  somethingWentWrong: 'エラーが発生しました',
  signInTo: (where) => `${where} にサインイン`,
  whoAreYou: 'どなたですか？',
  signIn: 'サインイン',
  wantsToKnow: (app) =>
    `${app} があなたを確認しようとしていますが、このブラウザではこのワークスペースに誰もサインインしていません。`,
  wantsToConfirm: (app, team) => `${app} が ${team} でのあなたを確認しようとしています。`,
  signedInAs: 'サインイン中のユーザー',
  willSee: 'アプリはあなたの名前、メールアドレス、Slack ユーザー ID を参照します。',
  continue: '続行',
  notYou:
    'ご本人ではありませんか？ワークスペースのページの「操作するユーザー」で選び直してから、リンクをもう一度開いてください。',
};

const BY_LANGUAGE = new Map<string, PageWords>([
  ['en', en],
  ['de', de],
  ['fr', fr],
  ['es', es],
  ['pt', pt],
  ['ja', ja],
]);

/** A Slack locale's language (`de-DE`, `es-LA`, `pt-BR`: de, es, pt), lower case. */
export function languageOf(locale: string | undefined): string | undefined {
  return /^([a-z]{2,3})(?:[-_]|$)/i.exec(locale ?? '')?.[1]?.toLowerCase();
}

/** The chrome's words for a Slack locale (`de-DE`, `es-LA`, `pt-BR`): by its language. */
export function pageWords(locale: string | undefined): PageWords {
  const language = languageOf(locale);
  return (language !== undefined && BY_LANGUAGE.get(language)) || en;
}

/**
 * A message's time as Slack shows it to a person of `locale`: "2:05 PM" in en-US, "14:05" where
 * the locale counts 24 hours (de-DE, fr-FR, en-GB...), in their zone.
 */
export function timeOf(date: Date, locale: string | undefined, timeZone: string | undefined) {
  const options = { timeZone, hour: 'numeric', minute: '2-digit' } as const;
  try {
    return new Intl.DateTimeFormat(locale || 'en-US', options).format(date);
  } catch {
    return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(date);
  }
}

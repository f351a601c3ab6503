// The Workflows panel's words, in the six languages of the page's chrome (words.ts), chosen the
// same way: by the acting person's language, English for any other.
import { languageOf } from './words.js';

export interface WorkflowWords {
  title: string;
  close: string;
  inChannel(channel: string): string;
  noneYet: string;
  start: string;
  next(when: string): string;
  done: string;
  runs: string;
  noRuns: string;
  startedBy(name: string): string;
  startedBySchedule: string;
  state: Record<'running' | 'completed' | 'failed', string>;
  newWorkflow: string;
  name: string;
  trigger: string;
  link: string;
  schedule: string;
  startsAt: string;
  repeats: string;
  once: string;
  daily: string;
  weekly: string;
  step: string;
  comesFrom(input: string): string;
  fixed: string;
  form: string;
  runner: string;
  value(input: string): string;
  create: string;
  submit: string;
  created(name: string): string;
  noSteps: string;
  formOf(name: string): string;
}

const en: WorkflowWords = {
  title: 'Workflows',
  close: 'Close workflows',
  inChannel: (c) => `In #${c}`,
  noneYet: 'None yet.',
  start: 'Start',
  next: (when) => `Next: ${when}`,
  done: 'Done',
  runs: 'Runs',
  noRuns: 'No runs yet.',
  startedBy: (name) => `Started by ${name}`,
  startedBySchedule: 'Started by its schedule',
  state: { running: 'running', completed: 'completed', failed: 'failed' },
  newWorkflow: 'New workflow',
  name: 'Name',
  trigger: 'Trigger',
  link: 'A link in this channel',
  schedule: 'On a schedule',
  startsAt: 'Starts at',
  repeats: 'Repeats',
  once: 'Once',
  daily: 'Every day',
  weekly: 'Every week',
  step: 'Step',
  comesFrom: (input) => `${input}: comes from`,
  fixed: 'A fixed value',
  form: 'The form',
  runner: 'The person who starts it',
  value: (input) => `${input}: value`,
  create: 'Create workflow',
  submit: 'Submit',
  created: (name) => `Workflow “${name}” created.`,
  noSteps: 'The app offers no workflow steps.',
  formOf: (name) => `${name} form`,
};

const de: WorkflowWords = {
  title: 'Workflows',
  close: 'Workflows schließen',
  inChannel: (c) => `In #${c}`,
  noneYet: 'Noch keine.',
  start: 'Starten',
  next: (when) => `Nächster Lauf: ${when}`,
  done: 'Erledigt',
  runs: 'Läufe',
  noRuns: 'Noch keine Läufe.',
  startedBy: (name) => `Gestartet von ${name}`,
  startedBySchedule: 'Nach Zeitplan gestartet',
  state: { running: 'läuft', completed: 'abgeschlossen', failed: 'fehlgeschlagen' },
  newWorkflow: 'Neuer Workflow',
  name: 'Name',
  trigger: 'Auslöser',
  link: 'Ein Link in diesem Channel',
  schedule: 'Nach Zeitplan',
  startsAt: 'Beginnt am',
  repeats: 'Wiederholung',
  once: 'Einmal',
  daily: 'Jeden Tag',
  weekly: 'Jede Woche',
  step: 'Schritt',
  comesFrom: (input) => `${input}: kommt aus`,
  fixed: 'Ein fester Wert',
  form: 'Das Formular',
  runner: 'Die Person, die ihn startet',
  value: (input) => `${input}: Wert`,
  create: 'Workflow erstellen',
  submit: 'Absenden',
  created: (name) => `Workflow „${name}“ erstellt.`,
  noSteps: 'Die App bietet keine Workflow-Schritte an.',
  formOf: (name) => `Formular ${name}`,
};

const fr: WorkflowWords = {
  title: 'Workflows',
  close: 'Fermer les workflows',
  inChannel: (c) => `Dans #${c}`,
  noneYet: 'Aucun pour l’instant.',
  start: 'Lancer',
  next: (when) => `Prochain\u202f: ${when}`,
  done: 'Terminé',
  runs: 'Exécutions',
  noRuns: 'Aucune exécution pour l’instant.',
  startedBy: (name) => `Lancé par ${name}`,
  startedBySchedule: 'Lancé par sa planification',
  state: { running: 'en cours', completed: 'terminé', failed: 'échoué' },
  newWorkflow: 'Nouveau workflow',
  name: 'Nom',
  trigger: 'Déclencheur',
  link: 'Un lien dans ce canal',
  schedule: 'Selon un planning',
  startsAt: 'Commence le',
  repeats: 'Répétition',
  once: 'Une fois',
  daily: 'Chaque jour',
  weekly: 'Chaque semaine',
  step: 'Étape',
  comesFrom: (input) => `${input}\u202f: vient de`,
  fixed: 'Une valeur fixe',
  form: 'Le formulaire',
  runner: 'La personne qui le lance',
  value: (input) => `${input}\u202f: valeur`,
  create: 'Créer le workflow',
  submit: 'Envoyer',
  created: (name) => `Workflow «\u202f${name}\u202f» créé.`,
  noSteps: 'L’app ne propose aucune étape de workflow.',
  formOf: (name) => `Formulaire ${name}`,
};

const es: WorkflowWords = {
  title: 'Flujos de trabajo',
  close: 'Cerrar flujos de trabajo',
  inChannel: (c) => `En #${c}`,
  noneYet: 'Aún no hay ninguno.',
  start: 'Iniciar',
  next: (when) => `Próximo: ${when}`,
  done: 'Terminado',
  runs: 'Ejecuciones',
  noRuns: 'Aún no hay ejecuciones.',
  startedBy: (name) => `Iniciado por ${name}`,
  startedBySchedule: 'Iniciado por su programación',
  state: { running: 'en curso', completed: 'completado', failed: 'fallido' },
  newWorkflow: 'Nuevo flujo de trabajo',
  name: 'Nombre',
  trigger: 'Activador',
  link: 'Un enlace en este canal',
  schedule: 'Según una programación',
  startsAt: 'Empieza el',
  repeats: 'Se repite',
  once: 'Una vez',
  daily: 'Cada día',
  weekly: 'Cada semana',
  step: 'Paso',
  comesFrom: (input) => `${input}: viene de`,
  fixed: 'Un valor fijo',
  form: 'El formulario',
  runner: 'La persona que lo inicia',
  value: (input) => `${input}: valor`,
  create: 'Crear flujo de trabajo',
  submit: 'Enviar',
  created: (name) => `Flujo de trabajo «${name}» creado.`,
  noSteps: 'La app no ofrece pasos de flujo de trabajo.',
  formOf: (name) => `Formulario ${name}`,
};

const pt: WorkflowWords = {
  title: 'Fluxos de trabalho',
  close: 'Fechar fluxos de trabalho',
  inChannel: (c) => `Em #${c}`,
  noneYet: 'Nenhum ainda.',
  start: 'Iniciar',
  next: (when) => `Próximo: ${when}`,
  done: 'Concluído',
  runs: 'Execuções',
  noRuns: 'Nenhuma execução ainda.',
  startedBy: (name) => `Iniciado por ${name}`,
  startedBySchedule: 'Iniciado pelo agendamento',
  state: { running: 'em andamento', completed: 'concluído', failed: 'falhou' },
  newWorkflow: 'Novo fluxo de trabalho',
  name: 'Nome',
  trigger: 'Gatilho',
  link: 'Um link neste canal',
  schedule: 'Em um agendamento',
  startsAt: 'Começa em',
  repeats: 'Repete',
  once: 'Uma vez',
  daily: 'Todo dia',
  weekly: 'Toda semana',
  step: 'Etapa',
  comesFrom: (input) => `${input}: vem de`,
  fixed: 'Um valor fixo',
  form: 'O formulário',
  runner: 'A pessoa que o inicia',
  value: (input) => `${input}: valor`,
  create: 'Criar fluxo de trabalho',
  submit: 'Enviar',
  created: (name) => `Fluxo de trabalho "${name}" criado.`,
  noSteps: 'O app não oferece etapas de fluxo de trabalho.',
  formOf: (name) => `Formulário ${name}`,
};

const ja: WorkflowWords = {
  title: 'ワークフロー',
  close: 'ワークフローを閉じる',
  inChannel: (c) => `#${c} 内`,
  noneYet: 'まだありません。',
  start: '開始',
  next: (when) => `次回: ${when}`,
  done: '完了',
  runs: '実行履歴',
  noRuns: 'まだ実行されていません。',
  startedBy: (name) => `${name} さんが開始`,
  startedBySchedule: 'スケジュールで開始',
  state: { running: '実行中', completed: '完了', failed: '失敗' },
  newWorkflow: '新しいワークフロー',
  name: '名前',
  trigger: 'トリガー',
  link: 'このチャンネルのリンク',
  schedule: 'スケジュール',
  startsAt: '開始日時',
  repeats: '繰り返し',
  once: '1 回のみ',
  daily: '毎日',
  weekly: '毎週',
  step: 'ステップ',
  comesFrom: (input) => `${input}: 値の取得元`,
  fixed: '固定値',
  form: 'フォーム',
  runner: '開始した人',
  value: (input) => `${input}: 値`,
  create: 'ワークフローを作成',
  submit: '送信',
  created: (name) => `ワークフロー「${name}」を作成しました。`,
  noSteps: 'このアプリにはワークフローのステップがありません。',
  formOf: (name) => `${name} のフォーム`,
};

const BY_LANGUAGE = new Map<string, WorkflowWords>([
  ['en', en],
  ['de', de],
  ['fr', fr],
  ['es', es],
  ['pt', pt],
  ['ja', ja],
]);

/** The panel's words for a Slack locale, by its language; English for any other. */
export function workflowWords(locale: string | undefined): WorkflowWords {
  const language = languageOf(locale);
  return (language !== undefined && BY_LANGUAGE.get(language)) || en;
}

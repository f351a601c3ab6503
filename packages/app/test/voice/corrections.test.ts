/**
 * Wordings a fluent reader once found wrong, each pinned to its correction so that none comes
 * back: one row per mistake, naming the message and what it must say (the whole message, or the
 * words that fixed it). The glossary test (glossary.test.ts) keeps each name single across every
 * message; these rows keep the particular sentences right.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allCatalogues, type Language } from '../../src/voice/index.js';

let catalogues: Map<Language, Map<string, string>>;
beforeAll(async () => {
  catalogues = await allCatalogues();
});

const N = '\u202F';

/** [language, message, what it must say: the whole message, or a pattern, or a rule]. */
type Row = [Language, string, string | RegExp | ((message: string) => boolean)];

const ROWS: Record<string, Row> = {
  'de: the decimal point is a point': [
    'de',
    'parse.amount_unclear',
    /zwei Stellen nach dem Punkt\.$/,
  ],
  'de: a price per person counts the booker': [
    'de',
    'help.lines.each',
    '7 pro Person, du mitgezählt (hier 21)',
  ],
  'de: Unlink is not Disconnect': ['de', 'linking.unlink_button', 'Verknüpfung lösen'],
  'de: settled is ausgeglichen': ['de', 'balances.settled_up', 'ausgeglichen'],
  'de: a channel is a Channel': ['de', 'feed.status_on', /^Dieser Channel zeigt/],
  'de: unequal splits are not shares': [
    'de',
    'help.lines.unequal',
    'ungleich aufteilen: Beträge, Prozentsätze (60%) oder Anteile (2x)',
  ],
  'de: one word for percentages': ['de', 'form.method_percent', 'Prozentsätze'],
  'de: fortnightly is every two weeks': ['de', 'parse.repeat_fortnightly', 'alle zwei Wochen'],
  'de: a payment is erfasst': [
    'de',
    'settle.not_confirmed_yet',
    /Bitte erfasse sie nicht noch einmal/,
  ],
  'de: no token': [
    'de',
    'home.kept_token',
    'die Verbindung zu deinem Splitwise-Konto (verschlüsselt)',
  ],
  'de: help shows commands': [
    'de',
    'common.help_hint',
    '`/split hilfe` zeigt die häufigsten Befehle und zu allem anderen ein Thema.',
  ],
  'de: unfinished forms, one word': [
    'de',
    'actions.kept_drafts',
    (m) => m === catalogues.get('de')!.get('home.kept_drafts') && m.includes('unfertig'),
  ],
  'de: a payer line reads name first': [
    'de',
    'expense.payer_line',
    /^\{who\}: \{paid, select, none \{Anteil \{share\}\}/,
  ],
  'de: one ellipsis style': ['de', 'form.groups_loading', 'Deine Gruppen werden geladen…'],

  'fr: the decimal point is a point': [
    'fr',
    'parse.amount_unclear',
    /deux chiffres après le point\.$/,
  ],
  'fr: the group is kept as le groupe': ['fr', 'groups.delete_keep', 'Le garder'],
  'fr: Undo is Défaire, not Annuler': ['fr', 'expense.undo', 'Défaire'],
  'fr: stopping reminders reads as stopping': ['fr', 'remind.stop', 'Ne plus recevoir de rappels'],
  'fr: tu throughout': [
    'fr',
    'balances.no_shared_expenses_someone',
    /^Tu n’as encore aucune dépense commune avec cette personne/,
  ],
  'fr: settled is quitte': ['fr', 'balances.settled_up', 'quitte'],
  'fr: the default split is a répartition': [
    'fr',
    'help.lines.group_default',
    /^une répartition par défaut/,
  ],
  'fr: a reminder names who owes': ['fr', 'remind.sent', /\{name\} te doit \{amounts\}/],
  'fr: looking back is Historique': ['fr', 'help.topics.list.title', 'Historique'],
  'fr: itemised bills are additions': ['fr', 'help.topics.itemise.title', 'Additions détaillées'],
  'fr: shared by everyone agrees with Partagée entre': [
    'fr',
    'form.shared_everyone',
    'Partagée par tous',
  ],
  'fr: who joins is ces personnes': [
    'fr',
    'parse.group_which_join',
    `Quel groupe ces personnes doivent-elles rejoindre${N}?`,
  ],
  'fr: connecté·e everywhere': ['fr', 'pages.connected_title', 'Connecté·e en tant que {name}'],
  'fr: typographic apostrophes': [
    'fr',
    'booking.not_confirmed_yet',
    (m) => !m.includes("'") && m.includes('n’a pas'),
  ],
  'fr: a narrow no-break space before the colon': [
    'fr',
    'balances.fallback',
    `{title}${N}: {position}.`,
  ],

  'es: settled overall is saldado': ['es', 'balances.net_even', '(en total, saldado)'],
  'es: settled is saldado': ['es', 'balances.settled_up', 'saldado'],
  'es: the default split is a reparto predeterminado': [
    'es',
    'help.lines.group_default',
    /^un reparto predeterminado/,
  ],
  'es: predeterminado, never por defecto': [
    'es',
    'groups.default_none',
    /no tiene un reparto predeterminado/,
  ],
  'es: keep it is conservar': ['es', 'expense.keep_it', 'Conservarlo'],
  'es: itemised bills are tickets': ['es', 'help.topics.itemise.title', 'Tickets desglosados'],
  'es: looking back is Historial': ['es', 'help.topics.list.title', 'Historial'],
  'es: people without items': ['es', 'form.itemise_info', /Las personas sin artículos se reparten/],
  'es: leave that person out': [
    'es',
    'booking.left_workspace',
    '{person} ya no está en este espacio de trabajo: quita a esa persona.',
  ],
  'es: each person, not each payer': [
    'es',
    'parse.does_not_add_up',
    'No cuadra: revisa la parte de cada persona y lo que pagó cada persona.',
  ],
  'es: words both Spain and Latin America use': [
    'es',
    'parse.parts_over',
    'Las partes suman {given}, más que el total ({cost}).',
  ],
  'es: the present perfect where it still holds': [
    'es',
    'home.welcome',
    /^Todavía no has conectado tu cuenta de Splitwise\./,
  ],
  'es: one way to number an expense': ['es', 'unfurl.expense_number', 'Gasto n.º {id}'],
  'es: stopping reminders is a switch': ['es', 'remind.stop', 'Desactivar recordatorios'],
  'es: a ti mismo': ['es', 'remind.self', 'No puedes enviarte un recordatorio a ti mismo.'],

  'pt-BR: settle up is Acertar contas': ['pt-BR', 'settle.settle_up', 'Acertar contas'],
  'pt-BR: settled is quite': ['pt-BR', 'balances.net_even', '(no total, quite)'],
  'pt-BR: an expense is registrada': [
    'pt-BR',
    'booking.not_confirmed_yet',
    /Não registre de novo: estou verificando e aviso aqui se foi registrada\.$/,
  ],
  'pt-BR: nothing was registrado': ['pt-BR', 'split.default_left_group', /nada foi registrado\./],
  'pt-BR: shares are cotas': ['pt-BR', 'groups.default_short_shares', '{ratio} cotas'],
  'pt-BR: looking back is Histórico': ['pt-BR', 'help.topics.list.title', 'Histórico'],
  'pt-BR: itemised bills are items': [
    'pt-BR',
    'help.topics.itemise.title',
    'Itens, gorjeta e impostos',
  ],
  'pt-BR: the DM and the thread are told apart': [
    'pt-BR',
    'talk.greeting',
    /depois de \/split, e eu respondo aqui\./,
  ],
  'pt-BR: a reminder names who owes': ['pt-BR', 'remind.sent', /\{name\} te deve \{amounts\}/],
  'pt-BR: click on the desktop': ['pt-BR', 'form.not_opened_edit', /Clique em Editar de novo\.$/],
  'pt-BR: one register, te deve': [
    'pt-BR',
    'help.lines.balance',
    'o que você deve e o que te devem, por moeda',
  ],
  'pt-BR: include yourself': ['pt-BR', 'form.shared_hint', 'Inclua-se, se você também divide.'],
  'pt-BR: one gender convention': ['pt-BR', 'groups.not_added', (m) => !m.includes('(a)')],
  'pt-BR: tax on the 80, before tip and tax': [
    'pt-BR',
    'help.lines.tip_tax',
    /sobre os 80, antes da gorjeta e impostos/,
  ],
  'pt-BR: unfinished forms, one word': [
    'pt-BR',
    'actions.kept_drafts',
    (m) => m === catalogues.get('pt-BR')!.get('home.kept_drafts') && m.includes('não concluído'),
  ],

  'en: the service is Splitwise': [
    'en',
    'service.timeout',
    "Splitwise didn't answer in time. {nothing} Try again in a minute.",
  ],
  'en: the form names its own button': [
    'en',
    'form.not_kept',
    "I couldn't save this just now: my storage isn't answering. Press {button} again in a minute.",
  ],
  'en: no token': [
    'en',
    'linking.unlink_confirm_text',
    "I'll unlink {account}; nothing more is booked through it.",
  ],
  'en: no status code': [
    'en',
    'service.server',
    'Splitwise is having trouble right now. {nothing} Try again in a few minutes.',
  ],
  'en: no JWT on the sign-in page': [
    'en',
    'pages.sign_in_problem',
    /not_jwt \{Slack's reply was unreadable\}/,
  ],
  'en: expenses go to a group': [
    'en',
    'home.group_set',
    'Expenses from `/split` go to {group} unless the channel has a group or you name one.',
  ],
  'en: a command is not a form': ['en', 'balances.help_hint', '`/split help` shows every command.'],
  'en: part of a debt is recorded': ['en', 'settle.pay_part', 'Record part…'],
  'en: a price per person counts the booker': [
    'en',
    'help.lines.each',
    '7 per person, you included (21 here)',
  ],
  'en: a payer line reads name first': [
    'en',
    'expense.payer_line',
    '{who}: {paid, select, none {share {share}} other {paid *{paid}* · share {share}}} · {net, select, owed {is owed {amount}} owes {owes {amount}} other {settled up}}',
  ],
  'en: my side, not our side': ['en', 'pages.failure_title', 'Something went wrong on my side'],
  'en: the longest notice is short': [
    'en',
    'split.default_left_group',
    (m) => m.split(/\s+/).length <= 40,
  ],
  'en: Shared by everyone, as labelled': [
    'en',
    'form.items_under',
    /or put it under Shared by everyone\.$/,
  ],
  'en: disconnect says it removes everything': [
    'en',
    'linking.whoami_disconnect',
    '`/split disconnect` unlinks it and removes everything Split keeps about you.',
  ],
  'en: clearing a default clears the currency too': [
    'en',
    'groups.default_cleared',
    '{person} cleared the default split and currency of *{group}*.',
  ],
  'en: naming nobody in a group uses its default': [
    'en',
    'help.lines.in_group',
    /splits by the group's default split/,
  ],
};

describe('wordings once found wrong', () => {
  it.each(Object.entries(ROWS))('%s', (_name, [language, key, wanted]) => {
    const message = catalogues.get(language)!.get(key);
    expect(message, `${language} ${key}`).toBeDefined();
    if (typeof wanted === 'string') expect(message).toBe(wanted);
    else if (wanted instanceof RegExp) expect(message).toMatch(wanted);
    else expect(wanted(message!), message).toBe(true);
  });

  it('keeps one message for a group name that matches none, in every command', () => {
    for (const key of ['booking.no_group_called', 'split.no_group_called', 'split.no_groups']) {
      expect(catalogues.get('en')!.has(key), key).toBe(false);
    }
  });
});

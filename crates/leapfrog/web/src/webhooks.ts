// The account's webhooks on its page: its endpoints with their recent
// deliveries, one registered (its secret shown once), tested, its secret
// rotated, deleted.

import { api } from "./client.js";
import { h, reason, say } from "./dom.js";
import type { S } from "./types.js";

// Typed by the API's own list: a kind it does not have does not compile.
const EVENTS: S["AccountEventKind"][] = ["your_turn", "game_over", "game_started", "challenge", "challenge_canceled", "challenge_declined", "vacation", "webhook_disabled"];

/** The secret, shown once with a word on how to use it. */
function secretShown(made: S["WebhookSecret"]): HTMLElement {
  return h("div", { class: "secret", id: "webhook-secret" },
    h("p", {}, "Its signing secret, shown this once — keep it where your receiver can read it:"),
    h("code", {}, made.secret));
}

/** One endpoint: what it takes, its state, its actions, its deliveries. */
function endpoint(name: string, token: string, w: S["WebhookView"], reload: (shown?: HTMLElement) => void): HTMLElement {
  const deliveries = h("table", { class: "deliveries" });
  const act = (what: () => Promise<unknown>, done: string) => (): void => {
    void what().then(() => { say(done); reload(); }, (err: unknown) => say(reason(err), true));
  };
  const showDeliveries = async (): Promise<void> => {
    const page = await api.deliveries(name, w.id, token);
    deliveries.replaceChildren(h("tr", {}, h("th", {}, "Event"), h("th", {}, "Status"), h("th", {}, "Tries"), h("th", {}, "Next try")),
      ...page.deliveries.map((d) => h("tr", {}, h("td", {}, d.type), h("td", {}, d.status + (d.last_status ? ` (${d.last_status})` : d.last_error ? ` (${d.last_error})` : "")),
        h("td", {}, String(d.tries)), h("td", {}, d.next_try_at ? new Date(d.next_try_at).toLocaleString() : "—"))));
  };
  void showDeliveries().catch((err: unknown) => say(`The deliveries did not load: ${reason(err)}`, true));
  const rotate = (): void => {
    void api.rotateWebhook(name, w.id, token).then((made) => {
      say("A new secret: both sign for a day.");
      reload(secretShown(made));
    }, (err: unknown) => say(reason(err), true));
  };
  return h("li", { "data-webhook": w.id },
    h("p", {}, h("code", {}, w.url), ` — ${w.events.length ? w.events.join(", ") : "every event"}; `,
      w.enabled ? "on" : `off (${w.disabled === "gone" ? "it answered 410" : "a day of failures"})`),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "test secondary", onclick: act(() => api.testWebhook(name, w.id, token), "A test event is on its way.") }, "Send a test event"),
      h("button", { type: "button", class: "rotate secondary", onclick: rotate }, "Rotate the secret"),
      h("button", { type: "button", class: "delete secondary", onclick: act(() => api.deleteWebhook(name, w.id, token), "Webhook deleted.") }, "Delete")),
    deliveries);
}

/** The account's webhooks and the form registering one. */
export function webhooksPanel(name: string, token: string): HTMLElement {
  const list = h("ul", { id: "webhooks", class: "webhooks" });
  const shown = h("div", {});
  const reload = (secret?: HTMLElement): void => {
    shown.replaceChildren(secret ?? "");
    void api.webhooks(name, token).then((page) => {
      list.replaceChildren(...page.webhooks.map((w) => endpoint(name, token, w, reload)));
      if (page.webhooks.length === 0) list.append(h("li", {}, "No webhook yet."));
    }, (err: unknown) => say(`The webhooks did not load: ${reason(err)}`, true));
  };
  const url = h("input", { id: "webhook-url", type: "url", required: true, placeholder: "your receiver's URL", "aria-label": "endpoint URL" });
  const boxes = EVENTS.map((e) => h("input", { type: "checkbox", value: e, checked: e === "your_turn" || e === "game_over" }));
  const form = h("form", { id: "webhook-form", onsubmit: (e) => {
    e.preventDefault();
    const events = boxes.filter((b) => b.checked).map((b) => b.value);
    void api.createWebhook(name, { url: url.value.trim(), events }, token).then((made) => {
      say("Webhook registered.");
      url.value = "";
      reload(secretShown(made));
    }, (err: unknown) => say(`The webhook was refused: ${reason(err)}`, true));
  } },
  h("label", {}, "Endpoint", url),
  h("fieldset", {}, h("legend", {}, "Events"), ...boxes.map((b) => h("label", { class: "check" }, b, ` ${b.value.replace("_", " ")}`))),
  h("div", { class: "actions" }, h("button", { type: "submit", id: "add-webhook" }, "Register")));
  reload();
  return h("div", {}, h("h2", {}, "Webhooks"),
    h("p", {}, "Your events, POSTed and signed (Standard Webhooks) to up to five HTTPS endpoints."),
    shown, list, form);
}

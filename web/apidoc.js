// The API page (`#/api`): the server's OpenAPI document (`/openapi.json`) rendered as a readable
// reference — each route with its method, summary, parameters, body and answers, and the schemas
// they name — instead of raw JSON. The raw document stays one link away.

import { h } from "./util.js";

function refName(ref) { return String(ref || "").split("/").pop(); }

function schemaText(schema) {
  if (!schema) return "";
  if (schema.$ref) return refName(schema.$ref);
  if (schema.type === "array") return `${schemaText(schema.items)}[]`;
  if (schema.oneOf) return schema.oneOf.map(schemaText).join(" | ");
  if (schema.allOf) return schema.allOf.map(schemaText).join(" & ");
  return schema.type || "object";
}

export async function mountApiPage(root) {
  const res = await fetch("openapi.json");
  if (!res.ok) throw new Error(`The server did not give its API description (${res.status}).`);
  const doc = await res.json();
  const info = doc.info || {};
  root.append(h("h1", {}, `${info.title || "API"}${info.version ? ` ${info.version}` : ""}`),
    info.description ? h("p", { class: "lede" }, info.description) : null,
    h("p", {}, "Every route below answers JSON; errors are ", h("code", {}, "{error: {code, message, details}}"),
      " with a stable code. Match routes take a seat's or the spectator's token as ", h("code", {}, "Authorization: Bearer …"), ". ",
      h("a", { href: "openapi.json" }, "The raw OpenAPI document"), "."));
  const toc = h("ul", { class: "api-toc" });
  const body = h("div", { class: "api-routes" });
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "delete", "patch"].includes(method)) continue;
      const id = `op-${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`;
      toc.append(h("li", {}, h("a", { href: `#/api`, onclick: (e) => { e.preventDefault(); document.getElementById(id)?.scrollIntoView(); } },
        h("span", { class: `method ${method}` }, method.toUpperCase()), " ", h("code", {}, path))));
      const params = (op.parameters || []).map((p) => h("li", {}, h("code", {}, p.name), ` (${p.in}${p.required ? ", required" : ""}) `, p.description || ""));
      const reqSchema = op.requestBody && op.requestBody.content && Object.values(op.requestBody.content)[0];
      const responses = Object.entries(op.responses || {}).map(([code, r]) => {
        const c = r.content && Object.values(r.content)[0];
        return h("li", {}, h("strong", {}, code), ` ${r.description || ""}`, c && c.schema ? [" — ", h("code", {}, schemaText(c.schema))] : null);
      });
      body.append(h("section", { class: "api-route card", id },
        h("h2", {}, h("span", { class: `method ${method}` }, method.toUpperCase()), " ", h("code", {}, path)),
        op.summary ? h("p", { class: "summary" }, op.summary) : null,
        op.description && op.description !== op.summary ? h("p", { class: "muted" }, op.description) : null,
        params.length ? [h("h3", {}, "Parameters"), h("ul", {}, params)] : null,
        reqSchema ? [h("h3", {}, "Body"), h("p", {}, h("code", {}, schemaText(reqSchema.schema)))] : null,
        responses.length ? [h("h3", {}, "Answers"), h("ul", {}, responses)] : null));
    }
  }
  const schemas = (doc.components && doc.components.schemas) || {};
  const schemaList = h("div", { class: "api-schemas" }, Object.entries(schemas).map(([name, sc]) => h("details", { class: "card" },
    h("summary", {}, h("code", {}, name), sc.description ? ` — ${sc.description}` : ""),
    sc.properties ? h("table", { class: "levels-table" }, h("tbody", {}, Object.entries(sc.properties).map(([k, p]) => h("tr", {},
      h("td", {}, h("code", {}, k), (sc.required || []).includes(k) ? " *" : ""), h("td", {}, h("code", {}, schemaText(p))), h("td", {}, p.description || ""))))) : null)));
  root.append(h("nav", { "aria-label": "Routes" }, toc), body, h("h2", {}, "Schemas"), schemaList);
  return {};
}

/* The console's staff accounts, for network administrators only (the API refuses anyone else): a new
 * concessionaire, and an operator account for a concessionaire, which then signs in at /staff and sees and acts
 * on that concessionaire only. The API's refusals (an unknown concessionaire, an email taken, a short password)
 * show on the form. */
"use strict";

staffPage("#/staff/operators", (body) => {
  const { input: concessionaire, known } = concessionaireIdInput("operator-concessionaire-ids");
  const createdConcessionaire = h("p", { class: "created-concessionaire", role: "status" });
  const createdOperator = h("p", { class: "created-operator", role: "status" });
  body.append(
    h("section", { class: "panel new-concessionaire" }, h("h2", {}, both("New concessionaire", "Nuovo concessionario")),
      form([
        field(both("Code (letters, digits, dashes)", "Codice (lettere, cifre, trattini)"), "code", { maxlength: 40 }),
        field(staffTerm("name"), "name", { maxlength: 120 }),
      ], both("Create", "Crea"), async (values) => {
        const created = await request("POST", "/concessionaires", values);
        concessionaire.value = created.id; // ready for its first operator
        fill(createdConcessionaire, both(`Created ${created.name}: id`, `Creato ${created.name}: id`), " ", h("code", {}, created.id));
      }),
      createdConcessionaire),
    h("section", { class: "panel new-operator" }, h("h2", {}, both("New operator account", "Nuovo account operatore")),
      form([
        h("label", {}, term("concessionaire"), concessionaire, known),
        field(term("email"), "email", { type: "email", autocomplete: "off" }),
        field(term("password"), "password", { type: "password", autocomplete: "new-password" }),
      ], both("Create the account", "Crea l'account"), async (values) => {
        const created = await request("POST", `/concessionaires/${encodeURIComponent(values.concessionaire_id)}/operators`,
          { email: values.email, password: values.password });
        fill(createdOperator, h("span", { "data-operator": created.id },
          both(`Operator ${created.email} created for ${created.concessionaire_id}: they sign in at /staff.`,
            `Operatore ${created.email} creato per ${created.concessionaire_id}: accede da /staff.`)));
      }),
      createdOperator),
  );
}, { adminOnly: true });

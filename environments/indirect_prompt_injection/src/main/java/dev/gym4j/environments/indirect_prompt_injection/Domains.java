package dev.gym4j.environments.indirect_prompt_injection;

import static dev.gym4j.environments.indirect_prompt_injection.Py.NONE;
import static dev.gym4j.environments.indirect_prompt_injection.Py.dict;
import static dev.gym4j.environments.indirect_prompt_injection.Py.get;
import static dev.gym4j.environments.indirect_prompt_injection.Py.in;
import static dev.gym4j.environments.indirect_prompt_injection.Py.item;
import static dev.gym4j.environments.indirect_prompt_injection.Py.lower;
import static dev.gym4j.environments.indirect_prompt_injection.Py.record;
import static dev.gym4j.environments.indirect_prompt_injection.Py.set;
import static dev.gym4j.environments.indirect_prompt_injection.Py.str;
import static dev.gym4j.environments.indirect_prompt_injection.Py.truthy;
import static dev.gym4j.environments.indirect_prompt_injection.Py.values;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tool handlers of NeMo Gym's nine domains ({@code resources_servers/indirect_prompt_injection/
 * *_tools.py} and {@code common_tools.py}), merged into one table as {@code app.py} merges them: every tool is
 * served to every world, a later domain's handler replacing an earlier one of the same name.
 */
final class Domains {
  private Domains() {}

  /** The merged table, in app.py's order: healthcare, hr, ecommerce, education, insurance, it_helpdesk, legal,
   * logistics, real_estate. */
  static Map<String, Tool> tools() {
    Map<String, Tool> tools = new LinkedHashMap<>();
    for (List<Tool> domain : List.of(healthcare(), hr(), ecommerce(), education(), insurance(), itHelpdesk(), legal(),
        logistics(), realEstate())) {
      domain.forEach(tool -> tools.put(tool.name(), tool));
    }
    return tools;
  }

  // ── shared helpers ──────────────────────────────────────────────────────

  private static JsonNode text(String value) {
    return Json.toTree(value);
  }

  /** {@code x.lower() in y.get(key, "").lower()}. */
  private static boolean containsLower(JsonNode haystackOwner, String key, String needleLower) {
    return lower(get(haystackOwner, key)).contains(needleLower);
  }

  /** {@code coll = env.get(key, {}); if id not in coll: return {"error": ...}; return coll[id]}. */
  private static JsonNode lookup(JsonNode collection, JsonNode id, String label) {
    if (!in(id, collection)) {
      return record("error", label + " " + str(id) + " not found.");
    }
    return item(collection, id);
  }

  private static ArrayNode filter(List<JsonNode> items, Predicate<JsonNode> keep) {
    ArrayNode out = Json.array();
    for (JsonNode node : items) {
      if (keep.test(node)) {
        out.add(node);
      }
    }
    return out;
  }

  /** {@code if status and item.get(key, "").lower() != status.lower(): skip}. */
  private static boolean sameLower(JsonNode filterValue, JsonNode item, String key) {
    return !truthy(filterValue) || lower(get(item, key)).equals(lower(filterValue));
  }

  /** {@code if value and value.lower() not in item.get(key, "").lower(): skip}. */
  private static boolean containedLower(JsonNode filterValue, JsonNode item, String key) {
    return !truthy(filterValue) || lower(get(item, key)).contains(lower(filterValue));
  }

  /** {@code if value and item.get(key) != value: skip}. */
  private static boolean sameValue(JsonNode filterValue, JsonNode item, String key) {
    return !truthy(filterValue) || Py.eq(get(item, key, NONE), filterValue);
  }

  // ── common_tools.py ─────────────────────────────────────────────────────

  private static final Tool SEND_MESSAGE = Tool.of("send_message(**kwargs)", (env, a) -> {
    JsonNode currentUser = get(env, "current_user", dict());
    JsonNode sender = a.kwarg("from_");
    if (!truthy(sender)) {
      sender = get(currentUser, "email", NONE);
    }
    if (!truthy(sender)) {
      sender = get(currentUser, "name", text("system@example.com"));
    }
    JsonNode recipient = a.kwarg("recipient");
    for (String alternative : List.of("to", "recipients")) {
      if (!truthy(recipient)) {
        recipient = a.kwarg(alternative);
      }
    }
    String recipientText;
    if (recipient.isArray()) {
      List<String> parts = new ArrayList<>();
      recipient.forEach(r -> parts.add(str(r)));
      recipientText = String.join(", ", parts);
    } else {
      recipientText = truthy(recipient) ? str(recipient) : "unknown";
    }
    ObjectNode message = record("from", sender, "to", recipientText, "subject", get(a.given(), "subject"),
        "body", get(a.given(), "body"), "timestamp", "sent");
    if (a.given().has("case_id")) {
      message.set("case_id", a.given().get("case_id"));
    }
    if (a.given().has("related_claim_id")) {
      message.set("related_claim_id", a.given().get("related_claim_id"));
    }
    JsonNode messages = get(env, "messages", NONE);
    if (messages.isArray()) {
      Py.append(messages, message);
    } else if (messages.isObject()) {
      String id = Py.newId("MSG-");
      message.put("message_id", id);
      set(messages, id, message);
    } else {
      Py.append(Py.setdefault(env, "messages", Py.list()), message);
    }
    return "Message sent to " + recipientText + ".";
  });

  private static final Tool GET_MESSAGES = Tool.of("get_messages(**kwargs)", (env, a) -> {
    List<JsonNode> result = Py.valuesOrItems(get(env, "messages", Py.list()));
    if (truthy(a.kwarg("case_id"))) {
      result = filter(result, m -> Py.eq(get(m, "case_id", NONE), a.kwarg("case_id"))).valueStream().toList();
    }
    if (truthy(a.kwarg("from_"))) {
      String from = lower(a.kwarg("from_"));
      result = filter(result, m -> lower(get(m, "from")).equals(from)).valueStream().toList();
    }
    if (truthy(a.kwarg("to"))) {
      String to = lower(a.kwarg("to"));
      result = filter(result, m -> lower(get(m, "to")).equals(to)).valueStream().toList();
    }
    if (!a.kwarg("is_read").isNull()) {
      result = filter(result, m -> Py.eq(get(m, "is_read", NONE), a.kwarg("is_read"))).valueStream().toList();
    }
    return filter(result, m -> true);
  });

  // ── healthcare_tools.py ─────────────────────────────────────────────────

  private static List<Tool> healthcare() {
    return List.of(
        Tool.of("search_patients(query)", (env, a) -> {
          String query = lower(a.get("query"));
          return filter(values(item(env, "patients")), patient -> {
            boolean condition = false;
            for (JsonNode c : Py.valuesOrItems(get(patient, "conditions", Py.list()))) {
              if (lower(c).contains(query)) {
                condition = true;
                break;
              }
            }
            return containsLower(patient, "name", query) || condition;
          }).valueStream().map(p -> (JsonNode) record("patient_id", item(p, "patient_id"), "name", item(p, "name")))
              .collect(Json::array, ArrayNode::add, ArrayNode::addAll);
        }),
        Tool.of("get_patient_record(patient_id)", (env, a) -> {
          JsonNode patients = item(env, "patients");
          if (!in(a.get("patient_id"), patients)) {
            return record("error", "Patient " + str(a.get("patient_id")) + " not found.");
          }
          return item(patients, a.get("patient_id"));
        }),
        Tool.of("update_patient_chart(patient_id, notes)", (env, a) -> {
          JsonNode patients = item(env, "patients");
          String id = str(a.get("patient_id"));
          if (!in(a.get("patient_id"), patients)) {
            return "Error: Patient " + id + " not found.";
          }
          JsonNode patient = item(patients, a.get("patient_id"));
          set(patient, "chart_notes", Py.appendNotes(get(patient, "chart_notes"), a.get("notes")));
          return "Chart updated for patient " + id + ".";
        }),
        Tool.of("get_schedule(date)", (env, a) -> filter(values(item(env, "appointments")),
            appointment -> Py.eq(get(appointment, "date", NONE), a.get("date")))),
        Tool.of("schedule_appointment(patient_id, date, time, reason)", (env, a) -> {
          String id = Py.newId("A");
          JsonNode appointments = item(env, "appointments");
          set(appointments, id, record("appointment_id", id, "patient_id", a.get("patient_id"), "date", a.get("date"),
              "time", a.get("time"), "reason", a.get("reason"), "status", "scheduled"));
          return "Appointment " + id + " scheduled for patient " + str(a.get("patient_id")) + " on "
              + str(a.get("date")) + " at " + str(a.get("time")) + ".";
        }),
        Tool.of("cancel_appointment(appointment_id)", (env, a) -> {
          JsonNode appointments = item(env, "appointments");
          String id = str(a.get("appointment_id"));
          if (!in(a.get("appointment_id"), appointments)) {
            return "Error: Appointment " + id + " not found.";
          }
          set(item(appointments, a.get("appointment_id")), "status", text("cancelled"));
          return "Appointment " + id + " has been cancelled.";
        }),
        Tool.of("send_referral(patient_id, specialist_email, reason)", (env, a) -> {
          if (!in(text("sent_actions"), env)) {
            set(env, "sent_actions", Py.list());
          }
          Py.append(item(env, "sent_actions"), record("type", "referral", "patient_id", a.get("patient_id"),
              "specialist_email", a.get("specialist_email"), "reason", a.get("reason")));
          return "Referral sent for patient " + str(a.get("patient_id")) + " to " + str(a.get("specialist_email"))
              + ".";
        }),
        SEND_MESSAGE,
        GET_MESSAGES,
        Tool.of("prescribe_medication(patient_id, medication, dosage, instructions)", (env, a) -> {
          if (!in(a.get("patient_id"), get(env, "prescriptions", dict()))) {
            set(Py.setdefault(env, "prescriptions", dict()), a.get("patient_id"), Py.list());
          }
          Py.append(item(item(env, "prescriptions"), a.get("patient_id")), record("medication", a.get("medication"),
              "dosage", a.get("dosage"), "instructions", a.get("instructions")));
          return "Prescribed " + str(a.get("medication")) + " " + str(a.get("dosage")) + " for patient "
              + str(a.get("patient_id")) + ".";
        }),
        Tool.of("get_prescriptions(patient_id)", (env, a) -> byKey(get(env, "prescriptions", dict()),
            a.get("patient_id"))),
        Tool.of("get_lab_results(patient_id)", (env, a) -> byKey(get(env, "lab_results", dict()),
            a.get("patient_id"))));
  }

  /** {@code mapping.get(key, [])} with a key the model gave. */
  private static JsonNode byKey(JsonNode mapping, JsonNode key) {
    if (!(mapping instanceof ObjectNode)) {
      return get(mapping, "", NONE);
    }
    return in(key, mapping) ? item(mapping, key) : Py.list();
  }

  // ── hr_tools.py ─────────────────────────────────────────────────────────

  private static List<Tool> hr() {
    return List.of(
        Tool.of("search_candidates(query, status=None)", (env, a) -> {
          String query = lower(a.get("query"));
          ArrayNode results = Json.array();
          for (JsonNode candidate : values(get(env, "candidates", dict()))) {
            boolean match = containsLower(candidate, "name", query) || containsLower(candidate, "resume", query)
                || containsLower(candidate, "application_notes", query)
                || containsLower(candidate, "position_applied", query);
            if (match && (a.get("status").isNull() || lower(get(candidate, "status")).equals(lower(a.get("status"))))) {
              results.add(record("candidate_id", item(candidate, "candidate_id"), "name", item(candidate, "name")));
            }
          }
          return results;
        }),
        Tool.of("get_candidate_profile(candidate_id)", (env, a) -> lookup(get(env, "candidates", dict()),
            a.get("candidate_id"), "Candidate")),
        Tool.of("update_candidate_status(candidate_id, status)", (env, a) -> {
          JsonNode candidates = get(env, "candidates", dict());
          String id = str(a.get("candidate_id"));
          if (!in(a.get("candidate_id"), candidates)) {
            return "Error: Candidate " + id + " not found.";
          }
          set(item(candidates, a.get("candidate_id")), "status", a.get("status"));
          return "Status updated for candidate " + id + " to '" + str(a.get("status")) + "'.";
        }),
        Tool.of("schedule_interview(candidate_id, interviewer_email, date, time)", (env, a) -> {
          String id = Py.newId("I-");
          set(Py.setdefault(env, "interviews", dict()), id, record("interview_id", id, "candidate_id",
              a.get("candidate_id"), "interviewer_email", a.get("interviewer_email"), "date", a.get("date"), "time",
              a.get("time"), "status", "scheduled"));
          return "Interview " + id + " scheduled for candidate " + str(a.get("candidate_id")) + " on "
              + str(a.get("date")) + " at " + str(a.get("time")) + ".";
        }),
        Tool.of("get_interview_schedule(date=None)", (env, a) -> filter(values(get(env, "interviews", dict())),
            interview -> a.get("date").isNull() || Py.eq(get(interview, "date", NONE), a.get("date")))),
        Tool.of("submit_interview_feedback(candidate_id, feedback, rating)", (env, a) -> {
          for (JsonNode interview : values(get(env, "interviews", dict()))) {
            if (Py.eq(get(interview, "candidate_id", NONE), a.get("candidate_id"))) {
              set(interview, "feedback", a.get("feedback"));
              set(interview, "rating", a.get("rating"));
              return "Feedback submitted for candidate " + str(a.get("candidate_id")) + ".";
            }
          }
          String id = Py.newId("I-");
          set(Py.setdefault(env, "interviews", dict()), id, record("interview_id", id, "candidate_id",
              a.get("candidate_id"), "feedback", a.get("feedback"), "rating", a.get("rating")));
          return "Feedback submitted for candidate " + str(a.get("candidate_id")) + ".";
        }),
        Tool.of("send_offer(candidate_id, position, salary, start_date)", (env, a) -> {
          Py.append(Py.setdefault(env, "sent_actions", Py.list()), record("type", "offer", "candidate_id",
              a.get("candidate_id"), "position", a.get("position"), "salary", a.get("salary"), "start_date",
              a.get("start_date")));
          return "Offer sent to candidate " + str(a.get("candidate_id")) + " for position '"
              + str(a.get("position")) + "'.";
        }),
        Tool.of("send_email(recipient, subject, body)", (env, a) -> {
          ObjectNode message = record("from", get(get(env, "current_user", dict()), "email",
              text("system@company.example")), "to", a.get("recipient"), "subject", a.get("subject"), "body",
              a.get("body"), "timestamp", "sent");
          if (in(text("inbox"), env)) {
            Py.append(item(env, "inbox"), message);
          } else {
            Py.append(Py.setdefault(env, "messages", Py.list()), message);
          }
          return "Email sent to " + str(a.get("recipient")) + ".";
        }),
        Tool.of("get_inbox()", (env, a) -> get(env, "inbox", get(env, "messages", Py.list()))),
        Tool.of("get_open_positions()", (env, a) -> filter(values(get(env, "open_positions", dict())), p -> true)),
        Tool.of("create_job_posting(title, description, requirements)", (env, a) -> {
          String id = Py.newId("POS-");
          set(Py.setdefault(env, "open_positions", dict()), id, record("position_id", id, "title", a.get("title"),
              "description", a.get("description"), "requirements", a.get("requirements"), "status", "open"));
          return "Job posting '" + str(a.get("title")) + "' created with ID " + id + ".";
        }));
  }

  // ── ecommerce_tools.py ──────────────────────────────────────────────────

  private static List<Tool> ecommerce() {
    return List.of(
        Tool.of("search_orders(customer_id=None, status=None, **kwargs)", (env, a) ->
            filter(values(get(env, "orders", dict())), order -> sameValue(a.get("customer_id"), order, "customer_id")
                && sameLower(a.get("status"), order, "status"))),
        Tool.of("get_order_details(order_id)", (env, a) -> lookup(get(env, "orders", dict()), a.get("order_id"),
            "Order")),
        Tool.of("update_order_status(order_id, status)", (env, a) -> update(get(env, "orders", dict()),
            a.get("order_id"), "Order", "status", a.get("status"),
            "Order " + str(a.get("order_id")) + " status updated to '" + str(a.get("status")) + "'.")),
        Tool.of("add_order_note(order_id, note)", (env, a) -> appendTo(get(env, "orders", dict()),
            a.get("order_id"), "Order", "notes", a.get("note"), "Note added to order " + str(a.get("order_id")) + ".")),
        Tool.of("search_products(query=None, category=None, **kwargs)", (env, a) ->
            filter(values(get(env, "products", dict())), product -> sameLower(a.get("category"), product, "category")
                && (!truthy(a.get("query")) || containsLower(product, "name", lower(a.get("query")))
                || containsLower(product, "description", lower(a.get("query")))))),
        Tool.of("get_product_details(product_id)", (env, a) -> lookup(get(env, "products", dict()),
            a.get("product_id"), "Product")),
        Tool.of("update_product_stock(product_id, stock_quantity)", (env, a) -> update(get(env, "products", dict()),
            a.get("product_id"), "Product", "stock_quantity", a.get("stock_quantity"),
            "Stock updated for product " + str(a.get("product_id")) + " to " + str(a.get("stock_quantity")) + ".")),
        Tool.of("process_refund(refund_id, amount, reason=None, admin_notes=None)", (env, a) -> {
          JsonNode refunds = get(env, "refunds", dict());
          if (in(a.get("refund_id"), refunds)) {
            JsonNode refund = item(refunds, a.get("refund_id"));
            set(refund, "status", text("processed"));
            set(refund, "amount", a.get("amount"));
            setIfTruthy(refund, "reason", a.get("reason"));
            setIfTruthy(refund, "admin_notes", a.get("admin_notes"));
          } else {
            ObjectNode refund = record("refund_id", a.get("refund_id"), "amount", a.get("amount"), "status",
                "processed");
            setIfTruthy(refund, "reason", a.get("reason"));
            setIfTruthy(refund, "admin_notes", a.get("admin_notes"));
            set(Py.setdefault(env, "refunds", dict()), a.get("refund_id"), refund);
          }
          return "Refund " + str(a.get("refund_id")) + " processed for $" + str(a.get("amount")) + ".";
        }),
        Tool.of("create_support_ticket(customer_id, subject, description, order_id=None, priority=\"medium\")",
            (env, a) -> {
              String id = Py.newId("T-");
              ObjectNode ticket = record("ticket_id", id, "customer_id", a.get("customer_id"), "subject",
                  a.get("subject"), "description", a.get("description"), "status", "open", "priority",
                  a.get("priority"));
              setIfTruthy(ticket, "order_id", a.get("order_id"));
              set(Py.setdefault(env, "support_tickets", dict()), id, ticket);
              return "Support ticket " + id + " created.";
            }),
        Tool.of("get_ticket_details(ticket_id)", (env, a) -> lookup(get(env, "support_tickets", dict()),
            a.get("ticket_id"), "Ticket")),
        Tool.of("update_ticket_status(ticket_id, status, priority=None)", (env, a) -> {
          JsonNode tickets = get(env, "support_tickets", dict());
          String id = str(a.get("ticket_id"));
          if (!in(a.get("ticket_id"), tickets)) {
            return "Error: Ticket " + id + " not found.";
          }
          JsonNode ticket = item(tickets, a.get("ticket_id"));
          set(ticket, "status", a.get("status"));
          setIfTruthy(ticket, "priority", a.get("priority"));
          return "Ticket " + id + " updated to status '" + str(a.get("status")) + "'.";
        }));
  }

  private static void setIfTruthy(JsonNode target, String key, JsonNode value) {
    if (truthy(value)) {
      set(target, key, value);
    }
  }

  private static void setIfGiven(JsonNode target, String key, JsonNode value) {
    if (!value.isNull()) {
      set(target, key, value);
    }
  }

  /** {@code if id not in coll: return "Error: <label> <id> not found."; coll[id][field] = value; return done}. */
  private static String update(JsonNode collection, JsonNode id, String label, String field, JsonNode value,
      String done) {
    if (!in(id, collection)) {
      return "Error: " + label + " " + str(id) + " not found.";
    }
    set(item(collection, id), field, value);
    return done;
  }

  /** As {@link #update}, appending {@code value} to the field's text on a new line. */
  private static String appendTo(JsonNode collection, JsonNode id, String label, String field, JsonNode value,
      String done) {
    if (!in(id, collection)) {
      return "Error: " + label + " " + str(id) + " not found.";
    }
    JsonNode entity = item(collection, id);
    set(entity, field, Py.appendNotes(get(entity, field), value));
    return done;
  }

  // ── education_tools.py ──────────────────────────────────────────────────

  private static List<Tool> education() {
    return List.of(
        GET_MESSAGES,
        SEND_MESSAGE,
        Tool.of("list_courses(department=None, **kwargs)", (env, a) -> filter(values(get(env, "courses", dict())),
            course -> sameLower(a.get("department"), course, "department"))),
        Tool.of("get_course_detail(course_id)", (env, a) -> lookup(get(env, "courses", dict()), a.get("course_id"),
            "Course")),
        Tool.of("create_course(course_code, title, description, credits, department, instructor_id, schedule, "
            + "**kwargs)", (env, a) -> {
              String id = Py.newId("C-");
              set(Py.setdefault(env, "courses", dict()), id, record("course_id", id, "course_code",
                  a.get("course_code"), "title", a.get("title"), "description", a.get("description"), "credits",
                  a.get("credits"), "department", a.get("department"), "instructor_id", a.get("instructor_id"),
                  "schedule", a.get("schedule")));
              return "Course '" + str(a.get("title")) + "' (" + str(a.get("course_code")) + ") created with ID "
                  + id + ".";
            }),
        Tool.of("get_financial_aid(student_id)", (env, a) -> filter(values(get(env, "financial_aid", dict())),
            aid -> Py.eq(get(aid, "student_id", NONE), a.get("student_id")))),
        Tool.of("adjust_financial_aid(aid_id, amount=None, status=None, reviewer_notes=None, **kwargs)", (env, a) -> {
          JsonNode records = get(env, "financial_aid", dict());
          if (!in(a.get("aid_id"), records)) {
            return record("error", "Financial aid record " + str(a.get("aid_id")) + " not found.");
          }
          JsonNode aid = item(records, a.get("aid_id"));
          setIfGiven(aid, "amount", a.get("amount"));
          setIfGiven(aid, "status", a.get("status"));
          setIfGiven(aid, "reviewer_notes", a.get("reviewer_notes"));
          return aid;
        }),
        Tool.of("get_grades_for_student(student_id)", (env, a) -> filter(values(get(env, "grades", dict())),
            grade -> Py.eq(get(grade, "student_id", NONE), a.get("student_id")))),
        Tool.of("submit_grade(student_id, course_id, assignment_name, score, max_score, grader_comments=\"\", "
            + "**kwargs)", (env, a) -> {
              String id = Py.newId("G-");
              set(Py.setdefault(env, "grades", dict()), id, record("grade_id", id, "student_id", a.get("student_id"),
                  "course_id", a.get("course_id"), "assignment_name", a.get("assignment_name"), "score",
                  a.get("score"), "max_score", a.get("max_score"), "grader_comments", a.get("grader_comments")));
              return "Grade submitted for student " + str(a.get("student_id")) + " in course "
                  + str(a.get("course_id")) + ".";
            }),
        Tool.of("search_students(name=None, major=None, email=None, **kwargs)", (env, a) ->
            filter(values(get(env, "students", dict())), student -> {
              if (truthy(a.get("name"))) {
                String fullName = (str(get(student, "first_name")) + " " + str(get(student, "last_name")))
                    .toLowerCase(java.util.Locale.ROOT);
                if (!fullName.contains(lower(a.get("name")))) {
                  return false;
                }
              }
              return containedLower(a.get("major"), student, "major")
                  && (!truthy(a.get("email")) || lower(a.get("email")).equals(lower(get(student, "email"))));
            })),
        Tool.of("get_student_record(student_id)", (env, a) -> lookup(get(env, "students", dict()),
            a.get("student_id"), "Student")),
        Tool.of("update_student_advisor_notes(student_id, notes)", (env, a) -> appendTo(get(env, "students", dict()),
            a.get("student_id"), "Student", "advisor_notes", a.get("notes"),
            "Advisor notes updated for student " + str(a.get("student_id")) + ".")));
  }

  // ── insurance_tools.py ──────────────────────────────────────────────────

  private static List<Tool> insurance() {
    return List.of(
        Tool.of("add_adjuster_note(claim_id, adjuster_id, note_text)", (env, a) -> {
          String id = Py.newId("AN-");
          ObjectNode note = record("note_id", id, "claim_id", a.get("claim_id"), "adjuster_id", a.get("adjuster_id"),
              "note_text", a.get("note_text"), "timestamp", "created");
          set(Py.setdefault(env, "adjuster_notes", dict()), id, note);
          return note;
        }),
        Tool.of("get_adjuster_notes_for_claim(claim_id)", (env, a) -> filter(values(get(env, "adjuster_notes",
            dict())), note -> Py.eq(get(note, "claim_id", NONE), a.get("claim_id")))),
        Tool.of("create_claim(policy_id, claim_number, date_of_loss, description, claim_type, amount_requested, "
            + "adjuster_id)", (env, a) -> {
              String id = Py.newId("CL-");
              ObjectNode claim = record("claim_id", id, "policy_id", a.get("policy_id"), "claim_number",
                  a.get("claim_number"), "date_of_loss", a.get("date_of_loss"), "description", a.get("description"),
                  "claim_type", a.get("claim_type"), "amount_requested", a.get("amount_requested"), "status", "open",
                  "adjuster_id", a.get("adjuster_id"));
              set(Py.setdefault(env, "claims", dict()), id, claim);
              return claim;
            }),
        Tool.of("get_claim_by_id(claim_id)", (env, a) -> lookup(get(env, "claims", dict()), a.get("claim_id"),
            "Claim")),
        Tool.of("update_claim_description(claim_id, description)", (env, a) -> update(get(env, "claims", dict()),
            a.get("claim_id"), "Claim", "description", a.get("description"),
            "Claim " + str(a.get("claim_id")) + " description updated.")),
        SEND_MESSAGE,
        Tool.of("get_messages_for_claim(claim_id)", (env, a) -> filter(Py.valuesOrItems(get(env, "messages",
            Py.list())), m -> Py.eq(get(m, "related_claim_id", NONE), a.get("claim_id"))
            || Py.eq(get(m, "claim_id", NONE), a.get("claim_id")))),
        Tool.of("flag_fraud_investigation(claim_id, investigator_id, flag_reason, severity)", (env, a) -> {
          String id = Py.newId("FF-");
          ObjectNode flag = record("flag_id", id, "claim_id", a.get("claim_id"), "investigator_id",
              a.get("investigator_id"), "flag_reason", a.get("flag_reason"), "severity", a.get("severity"), "status",
              "open");
          set(Py.setdefault(env, "fraud_investigation_flags", dict()), id, flag);
          return flag;
        }),
        Tool.of("process_payout(claim_id, amount, date, method, notes)", (env, a) -> {
          String id = Py.newId("PO-");
          ObjectNode payout = record("payout_id", id, "claim_id", a.get("claim_id"), "amount", a.get("amount"),
              "date", a.get("date"), "method", a.get("method"), "status", "processed", "notes", a.get("notes"));
          set(Py.setdefault(env, "payouts", dict()), id, payout);
          return payout;
        }),
        Tool.of("get_policy_by_id(policy_id)", (env, a) -> lookup(get(env, "policies", dict()), a.get("policy_id"),
            "Policy")),
        Tool.of("search_policies_by_holder(policyholder_name)", (env, a) -> {
          String name = lower(a.get("policyholder_name"));
          return filter(values(get(env, "policies", dict())), policy -> containsLower(policy, "policyholder_name",
              name));
        }),
        Tool.of("update_policy_notes(policy_id, notes)", (env, a) -> update(get(env, "policies", dict()),
            a.get("policy_id"), "Policy", "notes", a.get("notes"), "Policy " + str(a.get("policy_id"))
                + " notes updated.")));
  }

  // ── it_helpdesk_tools.py ────────────────────────────────────────────────

  private static List<Tool> itHelpdesk() {
    return List.of(
        Tool.of("search_assets(tag=None, type=None, status=None, location=None, **kwargs)", (env, a) ->
            filter(values(get(env, "assets", dict())), asset -> containedLower(a.get("tag"), asset, "tag")
                && sameLower(a.get("type"), asset, "type") && sameLower(a.get("status"), asset, "status")
                && containedLower(a.get("location"), asset, "location"))),
        Tool.of("get_asset(asset_id)", (env, a) -> lookup(get(env, "assets", dict()), a.get("asset_id"), "Asset")),
        Tool.of("update_asset_notes(asset_id, notes)", (env, a) -> update(get(env, "assets", dict()),
            a.get("asset_id"), "Asset", "notes", a.get("notes"), "Asset " + str(a.get("asset_id"))
                + " notes updated.")),
        SEND_MESSAGE,
        GET_MESSAGES,
        Tool.of("search_kb_articles(keyword=None, category=None, **kwargs)", (env, a) ->
            filter(values(get(env, "knowledge_base_articles", dict())), article -> sameLower(a.get("category"),
                article, "category") && (!truthy(a.get("keyword"))
                || containsLower(article, "title", lower(a.get("keyword")))
                || containsLower(article, "content", lower(a.get("keyword")))))),
        Tool.of("get_kb_article(article_id)", (env, a) -> lookup(get(env, "knowledge_base_articles", dict()),
            a.get("article_id"), "Article")),
        Tool.of("update_kb_article_content(article_id, content)", (env, a) -> update(get(env,
            "knowledge_base_articles", dict()), a.get("article_id"), "Article", "content", a.get("content"),
            "Article " + str(a.get("article_id")) + " content updated.")),
        Tool.of("search_incidents(keyword=None, status=None, priority=None, **kwargs)", (env, a) ->
            filter(values(get(env, "incidents", dict())), incident -> sameLower(a.get("status"), incident, "status")
                && sameLower(a.get("priority"), incident, "priority") && (!truthy(a.get("keyword"))
                || containsLower(incident, "title", lower(a.get("keyword")))
                || containsLower(incident, "description", lower(a.get("keyword")))))),
        Tool.of("get_incident(ticket_id)", (env, a) -> lookup(get(env, "incidents", dict()), a.get("ticket_id"),
            "Incident")),
        Tool.of("update_incident_description(ticket_id, description)", (env, a) -> update(get(env, "incidents",
            dict()), a.get("ticket_id"), "Incident", "description", a.get("description"),
            "Incident " + str(a.get("ticket_id")) + " description updated.")),
        Tool.of("create_incident(title, description, priority, assigned_to)", (env, a) -> {
          String id = Py.newId("INC-");
          set(Py.setdefault(env, "incidents", dict()), id, record("ticket_id", id, "title", a.get("title"),
              "description", a.get("description"), "status", "Open", "priority", a.get("priority"), "assigned_to",
              a.get("assigned_to")));
          return "Incident " + id + " created.";
        }));
  }

  // ── legal_tools.py ──────────────────────────────────────────────────────

  private static List<Tool> legal() {
    return List.of(
        Tool.of("add_billing_entry(case_id, date, description, hours, rate, billable=True, attorney=None, **kwargs)",
            (env, a) -> {
              String id = Py.newId("BL-");
              ObjectNode entry = record("billing_id", id, "case_id", a.get("case_id"), "date", a.get("date"),
                  "description", a.get("description"), "hours", a.get("hours"), "rate", a.get("rate"), "amount",
                  Py.multiply(a.get("hours"), a.get("rate")), "billable", a.get("billable"));
              setIfTruthy(entry, "attorney", a.get("attorney"));
              set(Py.setdefault(env, "billing_records", dict()), id, entry);
              return "Billing entry " + id + " added for case " + str(a.get("case_id")) + ".";
            }),
        Tool.of("get_billing_report(case_id=None, start_date=None, end_date=None, billable=None, **kwargs)",
            (env, a) -> filter(values(get(env, "billing_records", dict())), entry ->
                sameValue(a.get("case_id"), entry, "case_id")
                && (!truthy(a.get("start_date")) || !Py.lt(get(entry, "date"), a.get("start_date")))
                && (!truthy(a.get("end_date")) || !Py.gt(get(entry, "date"), a.get("end_date")))
                && (a.get("billable").isNull() || Py.eq(get(entry, "billable", NONE), a.get("billable"))))),
        Tool.of("search_cases(client_name=None, case_type=None, status=None, **kwargs)", (env, a) ->
            filter(values(get(env, "case_files", dict())), c -> containedLower(a.get("client_name"), c, "client_name")
                && sameLower(a.get("case_type"), c, "case_type") && sameLower(a.get("status"), c, "status"))),
        Tool.of("get_case_file(case_id)", (env, a) -> lookup(get(env, "case_files", dict()), a.get("case_id"),
            "Case")),
        Tool.of("update_case_notes(case_id, notes)", (env, a) -> update(get(env, "case_files", dict()),
            a.get("case_id"), "Case", "notes", a.get("notes"), "Case " + str(a.get("case_id")) + " notes updated.")),
        SEND_MESSAGE,
        GET_MESSAGES,
        Tool.of("get_court_schedule(schedule_id)", (env, a) -> lookup(get(env, "court_schedules", dict()),
            a.get("schedule_id"), "Schedule")),
        Tool.of("search_schedules(case_id=None, start_date=None, end_date=None, hearing_type=None, **kwargs)",
            (env, a) -> filter(values(get(env, "court_schedules", dict())), s -> sameValue(a.get("case_id"), s,
                "case_id")
                && (!truthy(a.get("start_date")) || !Py.lt(get(s, "scheduled_date"), a.get("start_date")))
                && (!truthy(a.get("end_date")) || !Py.gt(get(s, "scheduled_date"), a.get("end_date")))
                && sameLower(a.get("hearing_type"), s, "hearing_type"))),
        Tool.of("update_schedule_location(schedule_id, location=None, notes=None)", (env, a) -> {
          JsonNode schedules = get(env, "court_schedules", dict());
          String id = str(a.get("schedule_id"));
          if (!in(a.get("schedule_id"), schedules)) {
            return "Error: Schedule " + id + " not found.";
          }
          JsonNode schedule = item(schedules, a.get("schedule_id"));
          setIfGiven(schedule, "location", a.get("location"));
          setIfGiven(schedule, "notes", a.get("notes"));
          return "Schedule " + id + " updated.";
        }),
        Tool.of("create_document_filing(case_id, document_type, title, filing_date, court_name, file_path, "
            + "served_parties=None, notes=None, **kwargs)", (env, a) -> {
              String id = Py.newId("DF-");
              ObjectNode filing = record("filing_id", id, "case_id", a.get("case_id"), "document_type",
                  a.get("document_type"), "title", a.get("title"), "filing_date", a.get("filing_date"), "court_name",
                  a.get("court_name"), "file_path", a.get("file_path"), "served_parties",
                  truthy(a.get("served_parties")) ? a.get("served_parties") : Py.list());
              setIfTruthy(filing, "notes", a.get("notes"));
              set(Py.setdefault(env, "document_filings", dict()), id, filing);
              return "Document filing " + id + " created for case " + str(a.get("case_id")) + ".";
            }),
        Tool.of("get_document_filing(filing_id)", (env, a) -> lookup(get(env, "document_filings", dict()),
            a.get("filing_id"), "Filing")));
  }

  // ── logistics_tools.py ──────────────────────────────────────────────────

  private static List<Tool> logistics() {
    return List.of(
        Tool.of("get_carrier_messages(shipment_id=None, **kwargs)", (env, a) -> filter(Py.valuesOrItems(get(env,
            "carrier_messages", dict())), m -> sameValue(a.get("shipment_id"), m, "shipment_id"))),
        Tool.of("send_carrier_message(to, subject, body)", (env, a) -> {
          JsonNode currentUser = get(env, "current_user", dict());
          JsonNode sender = get(currentUser, "email", NONE);
          if (!truthy(sender)) {
            sender = get(currentUser, "name", text("system@logistics.example"));
          }
          String id = Py.newId("CM-");
          ObjectNode message = record("message_id", id, "from", sender, "to", a.get("to"), "subject",
              a.get("subject"), "body", a.get("body"), "timestamp", "sent");
          if (get(env, "carrier_messages", NONE).isObject()) {
            set(item(env, "carrier_messages"), id, message);
          } else {
            Py.append(Py.setdefault(env, "carrier_messages", Py.list()), message);
          }
          return "Carrier message sent to " + str(a.get("to")) + ".";
        }),
        Tool.of("get_customs_declaration_by_shipment(shipment_id)", (env, a) -> {
          for (JsonNode declaration : values(get(env, "customs_declarations", dict()))) {
            if (Py.eq(get(declaration, "shipment_id", NONE), a.get("shipment_id"))) {
              return declaration;
            }
          }
          return record("error", "No customs declaration found for shipment " + str(a.get("shipment_id")) + ".");
        }),
        Tool.of("submit_customs_declaration(shipment_id, hs_code, declared_value, additional_info=None, **kwargs)",
            (env, a) -> {
              for (JsonNode declaration : values(get(env, "customs_declarations", dict()))) {
                if (Py.eq(get(declaration, "shipment_id", NONE), a.get("shipment_id"))) {
                  set(declaration, "hs_code", a.get("hs_code"));
                  set(declaration, "declared_value", a.get("declared_value"));
                  setIfGiven(declaration, "additional_info", a.get("additional_info"));
                  set(declaration, "status", text("submitted"));
                  return declaration;
                }
              }
              String id = Py.newId("CD-");
              ObjectNode declaration = record("declaration_id", id, "shipment_id", a.get("shipment_id"), "hs_code",
                  a.get("hs_code"), "declared_value", a.get("declared_value"), "status", "submitted");
              setIfGiven(declaration, "additional_info", a.get("additional_info"));
              set(Py.setdefault(env, "customs_declarations", dict()), id, declaration);
              return declaration;
            }),
        Tool.of("get_delivery_schedule(shipment_id)", (env, a) -> {
          for (JsonNode schedule : values(get(env, "delivery_schedules", dict()))) {
            if (Py.eq(get(schedule, "shipment_id", NONE), a.get("shipment_id"))) {
              return schedule;
            }
          }
          return record("error", "No delivery schedule found for shipment " + str(a.get("shipment_id")) + ".");
        }),
        Tool.of("get_shipment_by_id(shipment_id)", (env, a) -> lookup(get(env, "shipments", dict()),
            a.get("shipment_id"), "Shipment")),
        Tool.of("search_shipments_by_status(status)", (env, a) -> {
          String status = lower(a.get("status"));
          return filter(values(get(env, "shipments", dict())), s -> lower(get(s, "status")).equals(status));
        }),
        Tool.of("update_shipment_status(shipment_id, status, eta=None, notes=None, **kwargs)", (env, a) -> {
          JsonNode shipments = get(env, "shipments", dict());
          String id = str(a.get("shipment_id"));
          if (!in(a.get("shipment_id"), shipments)) {
            return "Error: Shipment " + id + " not found.";
          }
          JsonNode shipment = item(shipments, a.get("shipment_id"));
          set(shipment, "status", a.get("status"));
          setIfGiven(shipment, "eta", a.get("eta"));
          setIfGiven(shipment, "notes", a.get("notes"));
          return "Shipment " + id + " updated to status '" + str(a.get("status")) + "'.";
        }),
        Tool.of("get_warehouse_inventory_item(inventory_id)", (env, a) -> lookup(get(env, "warehouse_inventories",
            dict()), a.get("inventory_id"), "Inventory item")),
        Tool.of("list_low_stock_items(threshold)", (env, a) -> filter(values(get(env, "warehouse_inventories",
            dict())), i -> Py.lt(get(i, "quantity", Json.toTree(0)), a.get("threshold")))),
        Tool.of("add_warehouse_inventory(sku, description, quantity, warehouse_location, comments=None, **kwargs)",
            (env, a) -> {
              String id = Py.newId("INV-");
              ObjectNode inventory = record("inventory_id", id, "sku", a.get("sku"), "description",
                  a.get("description"), "quantity", a.get("quantity"), "warehouse_location",
                  a.get("warehouse_location"));
              setIfGiven(inventory, "comments", a.get("comments"));
              set(Py.setdefault(env, "warehouse_inventories", dict()), id, inventory);
              return "Inventory item " + id + " added (SKU: " + str(a.get("sku")) + ").";
            }),
        Tool.of("adjust_warehouse_quantity(inventory_id, adjustment)", (env, a) -> {
          JsonNode items = get(env, "warehouse_inventories", dict());
          String id = str(a.get("inventory_id"));
          if (!in(a.get("inventory_id"), items)) {
            return "Error: Inventory item " + id + " not found.";
          }
          JsonNode inventory = item(items, a.get("inventory_id"));
          set(inventory, "quantity", Py.add(get(inventory, "quantity", Json.toTree(0)), a.get("adjustment")));
          return "Inventory " + id + " quantity adjusted by " + str(a.get("adjustment")) + ".";
        }));
  }

  // ── real_estate_tools.py ────────────────────────────────────────────────

  private static List<Tool> realEstate() {
    return List.of(
        Tool.of("list_clients(**kwargs)", (env, a) -> filter(values(get(env, "clients", dict())), c -> true)),
        Tool.of("get_client_details(client_id)", (env, a) -> lookup(get(env, "clients", dict()), a.get("client_id"),
            "Client")),
        Tool.of("add_client_note(client_id, notes)", (env, a) -> update(get(env, "clients", dict()),
            a.get("client_id"), "Client", "notes", a.get("notes"), "Notes updated for client "
                + str(a.get("client_id")) + ".")),
        GET_MESSAGES,
        SEND_MESSAGE,
        Tool.of("schedule_inspection(property_id, inspector_name, inspection_date)", (env, a) -> {
          String id = Py.newId("IR-");
          set(Py.setdefault(env, "inspection_reports", dict()), id, record("report_id", id, "property_id",
              a.get("property_id"), "inspector_name", a.get("inspector_name"), "inspection_date",
              a.get("inspection_date"), "findings", "", "recommendations", "", "overall_condition", ""));
          return "Inspection " + id + " scheduled for property " + str(a.get("property_id")) + ".";
        }),
        Tool.of("get_inspection_report(report_id)", (env, a) -> lookup(get(env, "inspection_reports", dict()),
            a.get("report_id"), "Inspection report")),
        Tool.of("submit_inspection_findings(report_id, findings, recommendations)", (env, a) -> {
          JsonNode reports = get(env, "inspection_reports", dict());
          String id = str(a.get("report_id"));
          if (!in(a.get("report_id"), reports)) {
            return "Error: Inspection report " + id + " not found.";
          }
          JsonNode report = item(reports, a.get("report_id"));
          set(report, "findings", a.get("findings"));
          set(report, "recommendations", a.get("recommendations"));
          return "Findings submitted for inspection report " + id + ".";
        }),
        Tool.of("search_properties(keywords=None, min_price=None, max_price=None, location=None, **kwargs)",
            (env, a) -> filter(values(get(env, "property_listings", dict())), p ->
                (a.get("min_price").isNull() || !Py.lt(get(p, "price", Json.toTree(0)), a.get("min_price")))
                && (a.get("max_price").isNull() || !Py.gt(get(p, "price", Json.toTree(0)), a.get("max_price")))
                && containedLower(a.get("location"), p, "address")
                && (!truthy(a.get("keywords")) || containsLower(p, "address", lower(a.get("keywords")))
                || containsLower(p, "description", lower(a.get("keywords")))))),
        Tool.of("get_property_details(property_id)", (env, a) -> lookup(get(env, "property_listings", dict()),
            a.get("property_id"), "Property")),
        Tool.of("create_property(address, price, bedrooms, bathrooms, description=None, status=\"active\", "
            + "listing_date=None, **kwargs)", (env, a) -> {
              String id = Py.newId("PROP-");
              ObjectNode property = record("property_id", id, "address", a.get("address"), "price", a.get("price"),
                  "bedrooms", a.get("bedrooms"), "bathrooms", a.get("bathrooms"), "status", a.get("status"));
              setIfTruthy(property, "description", a.get("description"));
              setIfTruthy(property, "listing_date", a.get("listing_date"));
              set(Py.setdefault(env, "property_listings", dict()), id, property);
              return "Property " + id + " created at " + str(a.get("address")) + ".";
            }),
        Tool.of("update_property_description(property_id, description)", (env, a) -> update(get(env,
            "property_listings", dict()), a.get("property_id"), "Property", "description", a.get("description"),
            "Property " + str(a.get("property_id")) + " description updated.")));
  }
}

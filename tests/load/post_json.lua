-- wrk script: POST the JSON body in the BODY_FILE environment variable.
local f = assert(io.open(os.getenv("BODY_FILE"), "r"))
wrk.method = "POST"
wrk.body = f:read("*a")
wrk.headers["Content-Type"] = "application/json"
f:close()

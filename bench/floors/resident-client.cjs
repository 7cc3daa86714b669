// Floor: a hook that reads its stdin JSON (read-stdin.cjs), hands it to a resident process over
// the socket named by argv[2] (resident-server.cjs), and prints the answer — all a hook would
// do if a process that stays held the index and ran git.
const { connect } = require("node:net");

require("./read-stdin.cjs")((input) => {
  const socket = connect(process.argv[2]);
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk));
  socket.on("end", () => process.stdout.write(answer));
  socket.end(`${JSON.stringify(input)}\n`);
});

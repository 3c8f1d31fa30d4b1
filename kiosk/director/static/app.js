"use strict";
const board = document.getElementById("board");
const lost = document.getElementById("lost");
const source = new EventSource("events");
source.addEventListener("board", (event) => { board.innerHTML = event.data; lost.hidden = true; });
source.addEventListener("error", () => { lost.hidden = false; });

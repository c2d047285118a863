# cmake -DBIN2C=... -DNAME=... -DINPUT=... -DOUTPUT=... -P embed_fatbin.cmake: INPUT's bytes as the C array NAME in
# the header OUTPUT (the CUDA toolkit's bin2c; 8-byte words keep the fatbin aligned as cuFFT reads it).
execute_process(COMMAND ${BIN2C} --name ${NAME} --type longlong --const ${INPUT} OUTPUT_FILE ${OUTPUT}
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "bin2c failed on ${INPUT}")
endif()
